# tests.cmake - every test the project runs with ctest.
#  unit.*    kernels against plain references in the tests, reader edge cases,
#            planner invariants: need nothing but this tree.
#  cli.*     bad input and command-line behaviour of the tinyengine binary.
#  golden.*  every model in ../shared, output bytes and per-layer bytes equal
#            to TFLite Micro's (fail, not skip, when CI=true and it is missing).

# Runtime kernels as a host library with external linkage, for unit tests.
file(GLOB TE_RUNTIME_C CONFIGURE_DEPENDS runtime/*.c runtime/*/*.c)
# The AVX2 kernels (target x86-64-v3) build on x86-64 only, with the macro
# the generated code defines for them; their tests run where the CPU has AVX2.
file(GLOB TE_RUNTIME_AVX2_C CONFIGURE_DEPENDS runtime/x86/*.c)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties(${TE_RUNTIME_AVX2_C} PROPERTIES COMPILE_DEFINITIONS TE_TARGET_AVX2=1)
elseif(TE_RUNTIME_AVX2_C)
  list(REMOVE_ITEM TE_RUNTIME_C ${TE_RUNTIME_AVX2_C})
endif()
# Under the sanitizers the unit tests and their kernels build at -O0: at
# -O1 gcc takes minutes on the specialised kernels (test_dw_fast.c alone
# 47 s, 7 at -O0) for tests that run in seconds; the compiler itself stays
# at -O1 (its patch searches run long in the tests).
set(TE_UNIT_OPT "")
if(TE_SANITIZE)
  set(TE_UNIT_OPT $<$<CONFIG:Debug>:-O0>)
endif()
if(TE_RUNTIME_C)
  add_library(te_runtime_host STATIC ${TE_RUNTIME_C})
  target_compile_options(te_runtime_host PRIVATE ${TE_UNIT_OPT})
  target_compile_definitions(te_runtime_host PUBLIC TE_KERNEL=)
  target_include_directories(te_runtime_host PUBLIC ${TE_RUNTIME_DIRS})
endif()

file(GLOB TE_UNIT_TESTS CONFIGURE_DEPENDS tests/unit/test_*.c)
if(NOT (CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang"))
  file(GLOB TE_UNIT_AVX2_TESTS CONFIGURE_DEPENDS tests/unit/test_*_avx2.c)
  if(TE_UNIT_AVX2_TESTS)
    list(REMOVE_ITEM TE_UNIT_TESTS ${TE_UNIT_AVX2_TESTS})
  endif()
endif()
foreach(src ${TE_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} tests/unit/testlib.c)
  target_compile_options(${name} PRIVATE ${TE_UNIT_OPT})
  target_include_directories(${name} PRIVATE tests/unit)
  target_link_libraries(${name} PRIVATE te_compiler te_tflite_builder)
  if(TARGET te_runtime_host)
    target_link_libraries(${name} PRIVATE te_runtime_host)
  endif()
  string(REGEX REPLACE "^test_" "" short ${name})
  add_test(NAME unit.${short} COMMAND ${name})
  # exit 77: the CPU lacks what the test needs (AVX2)
  set_tests_properties(unit.${short} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

# the TFLM arena estimate's planner (bench/tflm_greedy.c)
if(TARGET test_tflm_greedy)
  target_link_libraries(test_tflm_greedy PRIVATE te_tflm_estimate)
endif()

file(GLOB TE_CLI_TESTS CONFIGURE_DEPENDS tests/cli/test_*.sh)
foreach(script ${TE_CLI_TESTS})
  get_filename_component(name ${script} NAME_WE)
  string(REGEX REPLACE "^test_" "" short ${name})
  add_test(NAME cli.${short} COMMAND sh ${script} $<TARGET_FILE:tinyengine> ${CMAKE_SOURCE_DIR}
                                         $<TARGET_FILE:te_mkmodel> $<TARGET_FILE:te_mkpatchnet>
                                         $<TARGET_FILE:te_mkref>)
  # exit 77: something the test needs is absent (shared models, a cross compiler)
  set_tests_properties(cli.${short} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

include(tests/golden/golden.cmake OPTIONAL)
include(tests/qemu/qemu.cmake)

# python.package: the Python package (python/) installed with pip into a
# venv, its unit tests and examples/python/rank_models.py.
add_test(NAME python.package
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/python/run.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE:tinyengine> $<TARGET_FILE:te_mkmodel> ${CMAKE_BINARY_DIR}/python-package)
set_tests_properties(python.package PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
include(tests/cmake/cmake_tests.cmake)

# The longest tests start first (ctest runs higher COST earlier): on a
# fresh build ctest has no timings of its own, and these at the end of the
# list would run alone on one core at the end.  Seconds measured under the
# sanitizers in a fresh-clone CI run on the 2-core machine (two jobs at
# once); a test that is not defined (no shared data, no QEMU) is skipped
# here.
foreach(pair qemu.conformance.m4_Os:30 cli.patch_code:78 cli.flash_bound_host:76
             cli.patch_kinds:70 golden.portability_generic:63 qemu.conformance.m7:60
             cli.code_bound:26 qemu.stack.O0:44 cli.patch_stage2:44 qemu.stack.patch_O2:42
             golden.patch_auto.mobilenet_v2_quantized_1x3x224x224:40 qemu.stack.patch_O0:37
             golden.portability.m4:36 golden.patch_auto.mit_mcunet_320kb_1mb_imagenet:32
             cli.patch_search:29 golden.memory_targets:29 golden.patch_auto.tflm_id_model:20
             golden.portability.x86_v3:29 cli.patch_split:25 cmake.add_subdirectory:25
             unit.conv_band:25 unit.pw_inplace:23 python.package:22
             golden.model.mobilenet_v2_quantized_1x3x224x224:21 cli.patch_ops:19
             golden.patch_auto.tinyengine_mcunetv2_large:19 golden.sweep_targets.m4:19
             golden.patch_auto.himax_fastest_coco_relu6:18 golden.sweep_targets.x86_v3:18
             golden.patch_auto.tflm_retinaface_466a481:17 cli.patch_inplace:17
             qemu.mobilenet_v2_quantized_1x3x224x224.m7:17
             qemu.mobilenet_v2_quantized_1x3x224x224.m4:16 cli.multimodel:16
             golden.patch_auto.gd32_food_101_192_model:15
             golden.model.tinyengine_mcunetv2_large:15 cli.patch_cache:15 cli.fuzz_generated:14
             unit.dw_fast:14 cli.bad_input:14 cli.patch_order:13
             qemu.tinyengine_mcunetv2_large.m4:13)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 test)
  list(GET pair 1 cost)
  if(TEST ${test})
    set_tests_properties(${test} PROPERTIES COST ${cost})
  endif()
endforeach()

# Every `tinyengine bench` of the run (QEMU sweeps: hundreds of images) keeps
# the harness objects, which depend only on the core and -O, in one folder.
get_property(te_all_tests DIRECTORY PROPERTY TESTS)
set_property(TEST ${te_all_tests} APPEND PROPERTY ENVIRONMENT
             TE_BENCH_CACHE=${CMAKE_BINARY_DIR}/bench-cache)

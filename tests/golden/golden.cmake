# golden.cmake - one ctest per shared model: byte-exact against TFLite Micro.
# Models are discovered at configure time from TE_SHARED_DIR.
add_test(NAME golden.shared_present
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/shared_present.sh ${TE_SHARED_DIR})
set_tests_properties(golden.shared_present PROPERTIES SKIP_RETURN_CODE 77)

# Models waiting for an issue (tests/golden/pending.txt): their golden test
# is an expected failure, and the sweeps below leave them out.
include(${CMAKE_SOURCE_DIR}/tests/golden/pending.cmake)
add_test(NAME golden.pending_list
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/check_pending.sh
                 ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt ${TE_SHARED_DIR})
set_tests_properties(golden.pending_list PROPERTIES DEPENDS golden.shared_present SKIP_RETURN_CODE 77)

function(te_add_golden kind model_path golden_dir)
  get_filename_component(name ${model_path} NAME_WE)
  add_test(NAME golden.${kind}.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/check_model.sh $<TARGET_FILE:tinyengine>
                   ${model_path} ${golden_dir} ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden.${kind}.${name} PROPERTIES DEPENDS golden.shared_present TIMEOUT 900)
  if(name IN_LIST TE_PENDING_MODELS)
    set_tests_properties(golden.${kind}.${name} PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()

file(GLOB TE_CONF_MODELS ${TE_SHARED_DIR}/conformance/*.tflite)
foreach(m ${TE_CONF_MODELS})
  get_filename_component(name ${m} NAME_WE)
  te_add_golden(conformance ${m} ${TE_SHARED_DIR}/conformance/${name})
endforeach()

file(GLOB TE_REAL_MODELS ${TE_SHARED_DIR}/models/*.tflite)
foreach(m ${TE_REAL_MODELS})
  get_filename_component(name ${m} NAME_WE)
  te_add_golden(model ${m} ${TE_SHARED_DIR}/golden/${name})
endforeach()

# From here on: only the models that compile and match (the sweeps).
te_drop_pending(TE_CONF_MODELS)
te_drop_pending(TE_REAL_MODELS)

# The per-target and --patch sweeps run every real model but, of the
# conformance set, a representative subset (CI must stay under 20 minutes
# on two cores): every convolution, depthwise, fully connected and
# element-wise variant the DSP/AVX2 kernels and the patch planner handle,
# the small nets, and one model of each other operator family.  Every
# conformance model still runs byte-exact on the default target above.
set(TE_SWEEP_REGEX "^(conv_|dw_|fc_|pad_dw|add_|mul_|sub_broadcast_c16|concat_conv|avgpool_2x2|\
maxpool_3x3_s2|mean_hw_c33|softmax_1x37|transpose_conv_3x3|resize_bilinear_2x_halfpixel|\
resize_nearest_2x_c8|mbv|mcunet|resnet8|dscnn|inception|schedule|se_hswish|unet|ad_autoencoder|\
kws_float|float_io|dilated_dw|leaky_relu_alpha0p1_c16|minimum_const_after_conv|\
prelu_per_channel_c16|gather_axis_last_1x6|split_channels|batch_matmul_const|reduce_max_hw_c16|\
arg_max_channels|reshape_dynamic_batch_keras_head|depth_to_space_b2|mirror_pad_reflect|\
strided_slice|squared_difference_mean|logistic_c16|hard_swish|elu_c16|cast_int8_to_int32_c16|\
requantize)")
set(TE_SWEEP_CONF_MODELS "")
foreach(m ${TE_CONF_MODELS})
  get_filename_component(name ${m} NAME_WE)
  if(name MATCHES "${TE_SWEEP_REGEX}")
    list(APPEND TE_SWEEP_CONF_MODELS ${m})
  endif()
endforeach()

# --int8-io on the models wrapped in float QUANTIZE/DEQUANTIZE.
foreach(spec conformance/float_in_quantize_conv:conformance/float_in_quantize_conv
             conformance/float_io_fc_softmax:conformance/float_io_fc_softmax
             conformance/kws_float_io_49x10:conformance/kws_float_io_49x10
             models/tinyengine_vww:golden/tinyengine_vww
             models/tinyengine_mnist_lenet_300_100:golden/tinyengine_mnist_lenet_300_100)
  string(REPLACE ":" ";" parts ${spec})
  list(GET parts 0 model)
  list(GET parts 1 gold)
  if(EXISTS ${TE_SHARED_DIR}/${model}.tflite)
    get_filename_component(name ${model} NAME)
    add_test(NAME golden.int8_io.${name}
             COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/check_int8_io.sh $<TARGET_FILE:tinyengine>
                     ${TE_SHARED_DIR}/${model}.tflite ${TE_SHARED_DIR}/${gold})
    set_tests_properties(golden.int8_io.${name} PROPERTIES DEPENDS golden.shared_present)
  endif()
endforeach()

# Patch-based execution: every model again with --patch auto (the stage
# and grid the search picks must stay byte-identical), and a forced
# explicit split on small conformance nets.
function(te_add_golden_flags kind model_path golden_dir flags)
  get_filename_component(name ${model_path} NAME_WE)
  add_test(NAME golden.${kind}.${name}
           COMMAND ${CMAKE_COMMAND} -E env "TE_FLAGS=${flags}"
                   sh ${CMAKE_SOURCE_DIR}/tests/golden/check_model.sh $<TARGET_FILE:tinyengine>
                   ${model_path} ${golden_dir} ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden.${kind}.${name} PROPERTIES DEPENDS golden.shared_present TIMEOUT 900)
endfunction()
# The same for the conformance models CONF (paths) and the real models
# named (model names; ALL: every real model).
function(te_add_golden_every kind flags conf real)
  foreach(m ${conf})
    get_filename_component(name ${m} NAME_WE)
    te_add_golden_flags(${kind} ${m} ${TE_SHARED_DIR}/conformance/${name} "${flags}")
  endforeach()
  foreach(m ${TE_REAL_MODELS})
    get_filename_component(name ${m} NAME_WE)
    if(real STREQUAL "ALL" OR name IN_LIST real)
      te_add_golden_flags(${kind} ${m} ${TE_SHARED_DIR}/golden/${name} "${flags}")
    endif()
  endforeach()
endfunction()
# (with two memory regions too: a small first one, so every model cuts its
# arena in two; the outputs must not change)
te_add_golden_every(patch_auto "--patch auto --memory-region R1=16K --memory-region R2=256M"
                    "${TE_SWEEP_CONF_MODELS}" ALL)
# The conformance models of that sweep build their harness with clang when
# there is one (same sanitizers): a second compiler's checks on the kernels
# (clang's UBSan also stops on NULL + offset, which gcc's lets pass), and its
# -O0 builds are quicker.  The real models' -O1 builds stay with gcc.
find_program(TE_CLANG clang)
if(TE_CLANG)
  foreach(m ${TE_SWEEP_CONF_MODELS})
    get_filename_component(name ${m} NAME_WE)
    set_tests_properties(golden.patch_auto.${name} PROPERTIES ENVIRONMENT CC=${TE_CLANG})
  endforeach()
endif()
# Each real model's compile also writes its `info --json` report (--report):
# cli.patch_search compares the plan the search chose there (the arena as one
# array: the regions do not change the plan) with explicit stages, rather than
# running the search a second time.
set(TE_PATCH_REPORTS ${CMAKE_BINARY_DIR}/patch-auto-reports)
foreach(m ${TE_REAL_MODELS})
  get_filename_component(name ${m} NAME_WE)
  set_tests_properties(golden.patch_auto.${name} PROPERTIES
                       ENVIRONMENT TE_REPORT_DIR=${TE_PATCH_REPORTS} FIXTURES_SETUP te_patch_reports)
endforeach()
if(TEST cli.patch_search AND TE_REAL_MODELS)
  set_tests_properties(cli.patch_search PROPERTIES
                       ENVIRONMENT TE_PATCH_REPORTS=${TE_PATCH_REPORTS} FIXTURES_REQUIRED te_patch_reports)
endif()
# The per-target sweeps run the conformance models whose code for the target
# differs from their generic code (kernels of its own), listed in
# tests/golden/sweep_<target>.txt: the others compile the generic code the
# default golden test checks.  golden.sweep_targets.<target> keeps each list
# exact (tests/golden/sweep_targets.sh --write prints it).
# The conformance models (paths) listed in tests/golden/sweep_TARGET.txt.
function(te_sweep_list target out)
  file(STRINGS ${CMAKE_SOURCE_DIR}/tests/golden/sweep_${target}.txt names REGEX "^[A-Za-z0-9_]")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${CMAKE_SOURCE_DIR}/tests/golden/sweep_${target}.txt)
  set(kept "")
  foreach(m ${TE_CONF_MODELS})
    get_filename_component(name ${m} NAME_WE)
    if(name IN_LIST names)
      list(APPEND kept ${m})
    endif()
  endforeach()
  set(${out} ${kept} PARENT_SCOPE)
endfunction()
function(te_target_conf_models target out)
  te_sweep_list(${target} kept)
  set(${out} ${kept} PARENT_SCOPE)
  string(REPLACE "x86-64-v3" "x86_v3" tag ${target})
  string(REPLACE "cortex-m4" "m4" tag ${tag})
  add_test(NAME golden.sweep_targets.${tag}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/sweep_targets.sh $<TARGET_FILE:tinyengine>
                   ${TE_SHARED_DIR} ${target} ${CMAKE_SOURCE_DIR}/tests/golden/sweep_${target}.txt
                   ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt)
  set_tests_properties(golden.sweep_targets.${tag} PROPERTIES DEPENDS golden.shared_present
                       SKIP_RETURN_CODE 77)
endfunction()
# The Cortex-M4 kernels (DSP primitives emulated exactly on the host):
# byte-identical, and their generated C compiles warning-free with the host
# compiler at -O2 too.
te_target_conf_models(cortex-m4 TE_M4_CONF_MODELS)
foreach(m ${TE_M4_CONF_MODELS})
  get_filename_component(name ${m} NAME_WE)
  te_add_golden_flags(target_m4 ${m} ${TE_SHARED_DIR}/conformance/${name} "--target cortex-m4")
endforeach()
# Target x86-64-v3 (the AVX2 kernels) on the conformance models with AVX2 code of their own
# (above) and a representative subset of the real models, where this machine's CPU has AVX2: byte-identical, warning-free, and
# under the sanitizers.  The real subset runs every kernel any real model runs on
# x86-64-v3 (golden.sweep_kernels.x86_v3 checks it); every real model still runs
# byte-exact on the default target, with --patch auto and on the Cortex-M4 and -M7 under QEMU.
set(TE_X86_REAL_MODELS gd32_food_101_192_model himax_fastest_coco_relu6 keyword_scrambled_8bit
    dtln_noise_suppression tflm_retinaface_466a481 tinyengine_mnist_lenet_300_100
    tflm_custom_model_rf_keras_7a86b0c)
set(TE_CPU_AVX2 OFF)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo TE_CPU_FLAGS REGEX "^flags.* avx2( |$)" LIMIT_COUNT 1)
  if(TE_CPU_FLAGS)
    set(TE_CPU_AVX2 ON)
  endif()
endif()
if(TE_CPU_AVX2)
  te_target_conf_models(x86-64-v3 TE_X86_CONF_MODELS)
  te_add_golden_every(target_x86_v3 "--target x86-64-v3" "${TE_X86_CONF_MODELS}" "${TE_X86_REAL_MODELS}")
  add_test(NAME golden.sweep_kernels.x86_v3
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/sweep_kernels.sh $<TARGET_FILE:tinyengine>
                   ${TE_SHARED_DIR} x86-64-v3 ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt
                   ${TE_X86_REAL_MODELS})
  set_tests_properties(golden.sweep_kernels.x86_v3 PROPERTIES DEPENDS golden.shared_present
                       SKIP_RETURN_CODE 77)
elseif(TE_CONF_MODELS)
  message(STATUS "this CPU has no AVX2: no golden tests of target x86-64-v3")
endif()
# Generated code compiles cleanly as strict C99 with clang and
# arm-none-eabi-gcc under firmware teams' warning flags: the generic code
# of every conformance model, and each target's code of the models with
# code of their own for it (the others' is their generic code, as
# golden.sweep_targets.* checks).
if(TE_CONF_MODELS)
  add_test(NAME golden.portability_generic
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/portability.sh $<TARGET_FILE:tinyengine>
                   ${TE_CONF_MODELS})
  set_tests_properties(golden.portability_generic PROPERTIES DEPENDS golden.shared_present
                       TIMEOUT 900)
endif()
foreach(target cortex-m4 x86-64-v3)
  te_sweep_list(${target} port_models)
  string(REPLACE "x86-64-v3" "x86_v3" tag ${target})
  string(REPLACE "cortex-m4" "m4" tag ${tag})
  if(port_models)
    add_test(NAME golden.portability.${tag}
             COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/portability.sh $<TARGET_FILE:tinyengine>
                     --target ${target} ${port_models})
    set_tests_properties(golden.portability.${tag} PROPERTIES DEPENDS golden.shared_present
                         SKIP_RETURN_CODE 77 TIMEOUT 900)
  endif()
endforeach()
foreach(spec mbv2_blocks_32x32:10:3x3 mcunet_tiny_48:5:4x4 mbv1_tiny_32:4:2x3 unet_tiny_32:1:5x5
             conv_3x3_s2_same_c8_16_relu6:1:3x2 dw_5x5_s2_m2_c5_none:1:2x2 pad_dw_3x3_s2_valid_c33_relu6:1:4x4
             se_hswish_net_32:2:3x3 resnet8_32:8:2x2 resnet8_32:4:4x3)
  string(REPLACE ":" ";" parts ${spec})
  list(GET parts 0 name)
  list(GET parts 1 k)
  list(GET parts 2 grid)
  if(EXISTS ${TE_SHARED_DIR}/conformance/${name}.tflite)
    string(REPLACE "x" "_" gtag ${grid})
    te_add_golden_flags(patch_${k}_${gtag} ${TE_SHARED_DIR}/conformance/${name}.tflite
                        ${TE_SHARED_DIR}/conformance/${name} "--patch ${k}:${grid}")
  endif()
endforeach()

# Issue 3's memory figures (bound on every model, the three patch targets).
if(EXISTS ${TE_SHARED_DIR}/models)
  add_test(NAME golden.memory_targets
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/check_memory_targets.sh
                   $<TARGET_FILE:tinyengine> ${TE_SHARED_DIR}
                   ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt)
  set_tests_properties(golden.memory_targets PROPERTIES DEPENDS golden.shared_present)
endif()

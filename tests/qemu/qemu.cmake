# qemu.cmake - Cortex-M tests: generated code built with arm-none-eabi-gcc for
# QEMU's mps2-an386 (Cortex-M4) and mps2-an500 (Cortex-M7), run under
# qemu-system-arm, outputs byte-equal to TFLite Micro's golden sample 0.
# Missing ../shared, QEMU or the Arm toolchain: skipped (77), failed when CI=true.
#  qemu.icount_exact.*  the instruction counter gives the exact known count
#  qemu.unit_conv_dsp.*  kernel unit tests with their assembly, on the target
#  qemu.unit_dw_dsp.*    (and the depthwise DSP paths, every multiplier)
#  qemu.tiny_cnn        target output = host output; RAM overflow is a link error
#  qemu.<model>.<cpu>   real models from ../shared (-O2; person_detect also -Os):
#                       outputs, the header's stack bound (within 2 KiB when
#                       optimised) and issue 15's flash default (run_model.sh)
#  example.firmware     examples/firmware configures and builds (tinyengine_add_model)

foreach(cpu m4 m7)
  add_test(NAME qemu.icount_exact.${cpu}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/icount_exact.sh ${CMAKE_SOURCE_DIR} cortex-${cpu})
  set_tests_properties(qemu.icount_exact.${cpu} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# Kernel unit tests whose assembly runs only on the target (the host runs
# their portable C): test_conv_dsp (te_conv2d_dsp_s8) and test_dw_dsp
# (te_depthwise_dsp_nhwc_s8, one input channel as te_conv2d_dsp_s8; depth
# multipliers 1-8) under QEMU.
foreach(cpu m4 m7)
  add_test(NAME qemu.unit_conv_dsp.${cpu}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/unit_kernel.sh ${CMAKE_SOURCE_DIR} cortex-${cpu}
                   test_conv_dsp 1000)
  set_tests_properties(qemu.unit_conv_dsp.${cpu} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  add_test(NAME qemu.unit_dw_dsp.${cpu}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/unit_kernel.sh ${CMAKE_SOURCE_DIR} cortex-${cpu}
                   test_dw_dsp 800)
  set_tests_properties(qemu.unit_dw_dsp.${cpu} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

add_test(NAME qemu.tiny_cnn
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/tiny_cnn.sh $<TARGET_FILE:tinyengine> ${CMAKE_SOURCE_DIR})
set_tests_properties(qemu.tiny_cnn PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

function(te_add_qemu_test model cpu opt)
  set(name qemu.${model}.${cpu})
  if(NOT opt STREQUAL "-O2")
    string(REPLACE "-" "_" suffix ${opt})
    set(name ${name}${suffix})
  endif()
  add_test(NAME ${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/run_model.sh $<TARGET_FILE:tinyengine>
                   ${TE_SHARED_DIR} ${model} cortex-${cpu} ${opt} 0)
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endfunction()

# These seven are always registered (so a missing ../shared fails under CI);
# every other shared model but the pending ones (tests/golden/pending.txt)
# is added when present.
set(TE_QEMU_MODELS hello_world_int8 micro_speech_quantized kws_ref_model ad01_int8
    pretrainedResnet_quant vww_96_int8 person_detect)
include(${CMAKE_SOURCE_DIR}/tests/golden/pending.cmake)
set(TE_QEMU_EXCLUDE ${TE_PENDING_MODELS})
file(GLOB TE_QEMU_SHARED_MODELS ${TE_SHARED_DIR}/models/*.tflite)
foreach(m ${TE_QEMU_SHARED_MODELS})
  get_filename_component(model ${m} NAME_WE)
  if(NOT model IN_LIST TE_QEMU_EXCLUDE AND NOT model IN_LIST TE_QEMU_MODELS)
    list(APPEND TE_QEMU_MODELS ${model})
  endif()
endforeach()
foreach(model ${TE_QEMU_MODELS})
  te_add_qemu_test(${model} m4 -O2)
  te_add_qemu_test(${model} m7 -O2)
endforeach()
te_add_qemu_test(person_detect m4 -Os)

add_test(NAME example.firmware
         COMMAND sh ${CMAKE_SOURCE_DIR}/examples/firmware/build_and_run.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE:tinyengine> ${CMAKE_BINARY_DIR}/example-firmware)
set_tests_properties(example.firmware PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# Every conformance model once on a core: those with DSP code of their own
# (tests/golden/sweep_cortex-m4.txt, TE_M4_CONF_MODELS of golden.cmake) on
# the M4 at -Os (the M7 gets the same code), the others' generic code on
# the M7 at -O2; the real models run at -O2 on both cores (above), and the
# DSP models' code also on the host under the sanitizers (golden.target_m4).
set(TE_GENERIC_CONF_MODELS ${TE_CONF_MODELS})
if(TE_M4_CONF_MODELS)
  list(REMOVE_ITEM TE_GENERIC_CONF_MODELS ${TE_M4_CONF_MODELS})
endif()
add_test(NAME qemu.conformance.m4_Os
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/conformance.sh $<TARGET_FILE:tinyengine>
                 ${TE_SHARED_DIR} cortex-m4 -Os ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt
                 ${TE_M4_CONF_MODELS})
add_test(NAME qemu.conformance.m7
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/conformance.sh $<TARGET_FILE:tinyengine>
                 ${TE_SHARED_DIR} cortex-m7 -O2 ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt
                 ${TE_GENERIC_CONF_MODELS})
set_tests_properties(qemu.conformance.m4_Os qemu.conformance.m7 PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)

# The stack bound of the header (NAME_STACK_BYTES) holds under QEMU (bench
# fails past it): every model at -O2 on both cores by qemu.<model>.<cpu>
# above (which also keeps an optimised build within 2 KiB); at -O0 here
# (issue 17) a subset of the real models that runs every kernel any of them
# runs on the Cortex-M4, each kernel's -O0 frame (qemu.stack.O0_kernels keeps
# it so: a model bringing a new kernel fails there until it joins); with --patch auto a representative set whose
# stages run every kernel family patches use (convolutions, depthwise,
# pools, ADD, residual cuts, the input overlay), at -O2 and -O0: the large
# models' patched images take minutes under QEMU each, and their outputs
# are checked byte for byte by golden.patch_auto.
set(TE_QEMU_PATCH_MODELS kws_ref_model pretrainedResnet_quant vww_96_int8 person_detect
    tinyengine_vww tflm_custom_model_rf_keras_7a86b0c)
set(TE_QEMU_O0_MODELS keyword_scrambled_8bit gd32_food_101_192_model mnist_lstm_int8
    tinyengine_mnist_lenet_300_100 tinyengine_vww himax_fastest_coco_relu6 tflm_id_model)
add_test(NAME qemu.stack.O0
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/stack.sh $<TARGET_FILE:tinyengine>
                 ${TE_SHARED_DIR} -O0 off ${TE_QEMU_O0_MODELS})
add_test(NAME qemu.stack.O0_kernels
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/sweep_kernels.sh $<TARGET_FILE:tinyengine>
                 ${TE_SHARED_DIR} cortex-m4 ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt
                 ${TE_QEMU_O0_MODELS})
set_tests_properties(qemu.stack.O0_kernels PROPERTIES SKIP_RETURN_CODE 77)
foreach(opt O2 O0)
  add_test(NAME qemu.stack.patch_${opt}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/qemu/stack.sh $<TARGET_FILE:tinyengine>
                   ${TE_SHARED_DIR} -${opt} auto ${TE_QEMU_PATCH_MODELS})
endforeach()
set_tests_properties(qemu.stack.O0 qemu.stack.patch_O2 qemu.stack.patch_O0
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)

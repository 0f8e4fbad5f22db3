# arm-none-eabi.cmake - CMake toolchain file: bare-metal Cortex-M4 with FPU
# (QEMU's mps2-an386) using Debian's gcc-arm-none-eabi and newlib-nano.
#   cmake -S examples/firmware -B build-fw -DCMAKE_TOOLCHAIN_FILE=examples/firmware/arm-none-eabi.cmake
# Set TE_CPU_FLAGS before (-DTE_CPU_FLAGS=...) for another core, e.g. Cortex-M7:
# "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb".
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")
# No OS to link test programs against: check the compiler with a library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

if(NOT TE_CPU_FLAGS)
  set(TE_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb")
endif()
set(CMAKE_C_FLAGS_INIT "${TE_CPU_FLAGS} -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-nostartfiles --specs=nano.specs --specs=nosys.specs -Wl,--gc-sections")

# Programs (tinyengine) run on the host; libraries and headers are the target's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

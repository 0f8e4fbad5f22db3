# install.cmake - where `tinyengine bench` finds the Cortex-M target files,
# and what `cmake --install` puts where (relocatable: nothing refers to the
# source tree or to the prefix):
#   bin/tinyengine
#   share/tinyengine/cortex-m/                startup, linker scripts, semihosting, QEMU plugin
#   share/cmake/TinyEngine/TinyEngineConfig.cmake (+ ConfigVersion, TinyEngine.cmake)
# The binary looks for the target files at a path relative to its own
# folder: ../share/tinyengine/cortex-m when installed, targets/cortex-m in the
# build tree (a link to the source tree's folder, made here).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TE_INSTALL_TARGETS_DIR ${CMAKE_INSTALL_DATADIR}/tinyengine/cortex-m)
set(TE_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/TinyEngine)
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_DATADIR}")
  message(FATAL_ERROR "TinyEngine installs relocatably: give CMAKE_INSTALL_BINDIR and "
                      "CMAKE_INSTALL_DATADIR relative to the prefix")
endif()
file(RELATIVE_PATH te_targets_reldir "/prefix/${CMAKE_INSTALL_BINDIR}"
     "/prefix/${TE_INSTALL_TARGETS_DIR}")
target_compile_definitions(tinyengine PRIVATE TE_TARGETS_RELDIR="${te_targets_reldir}")

# build tree: <binary dir>/targets/cortex-m -> <source>/targets/cortex-m
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/targets)
if(NOT EXISTS ${CMAKE_CURRENT_BINARY_DIR}/targets/cortex-m)
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/targets/cortex-m
       ${CMAKE_CURRENT_BINARY_DIR}/targets/cortex-m SYMBOLIC COPY_ON_ERROR)
endif()

# build tree: the QEMU instruction-count plugin `tinyengine bench` loads,
# built once beside the binary with the host compiler and none of the
# project's flags (QEMU is no sanitized process); bench builds its own
# when this one is missing or older than the target folder's source
# (installed trees, other target folders).
if(UNIX)
  set(te_icount_src ${CMAKE_CURRENT_SOURCE_DIR}/targets/cortex-m/qemu/te_icount.c)
  add_custom_command(
    OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/te_icount.so
    COMMAND ${CMAKE_C_COMPILER} -std=c99 -O2 -shared -fPIC -o ${CMAKE_CURRENT_BINARY_DIR}/te_icount.so
            ${te_icount_src}
    DEPENDS ${te_icount_src} ${CMAKE_CURRENT_SOURCE_DIR}/targets/cortex-m/qemu/te_qemu_plugin_api.h
    COMMENT "Building the QEMU instruction-count plugin")
  add_custom_target(te_icount_plugin ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/te_icount.so)
endif()

install(TARGETS tinyengine RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY targets/cortex-m/ DESTINATION ${TE_INSTALL_TARGETS_DIR})
configure_package_config_file(cmake/TinyEngineConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/TinyEngineConfig.cmake
  INSTALL_DESTINATION ${TE_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR TE_INSTALL_TARGETS_DIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/TinyEngineConfigVersion.cmake
  VERSION 0.1.0 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT) # a host tool: any target
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/TinyEngineConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/TinyEngineConfigVersion.cmake
              cmake/TinyEngine.cmake
        DESTINATION ${TE_INSTALL_CMAKE_DIR})

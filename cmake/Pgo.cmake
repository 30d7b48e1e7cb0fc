# Profile-guided optimisation (GCC) of Release builds: AUGUR_PGO=ON (the release and ci presets).
#
# The build first makes an instrumented augur in <build>/pgo/build (an ExternalProject of this
# same source tree, configured with AUGUR_PGO_GENERATE), runs it on the training workloads of
# cmake/PgoTraining.cmake (message-passing and Lib-DVM runs, every analysis and report, about
# 2 s), and then compiles every target of this build with the profile it wrote to
# <build>/pgo/profile. The profile changes only how the compiler lays out and inlines the code:
# every output stays byte-identical (no floating-point option changes). Profile files are named
# by the object's path relative to its build folder (-fprofile-prefix-path), so that the two
# builds find each other's. Sanitizer builds and other compilers build without it.
#
# AUGUR_PGO_GENERATE is internal: the folder the instrumented build writes its profile to.
option(AUGUR_PGO "Optimise with a profile of augur's own training runs (GCC Release builds)" OFF)
set(AUGUR_PGO_GENERATE "" CACHE PATH "Internal: build instrumented, writing the profile to this folder")
mark_as_advanced(AUGUR_PGO_GENERATE)

# With a profile, GCC 12 inlines spdlog's atomic level store into a false -Wstringop-overflow
# (engine/log.cpp; the same false positive as GCC bug 104475 for std::atomic): off in profiled and
# instrumented builds; the sanitizer build, which has no profile, still reports the warning.
set(augur_pgo_warnings -Wno-stringop-overflow)

if(AUGUR_PGO_GENERATE)
  target_compile_options(augur_settings INTERFACE "-fprofile-generate=${AUGUR_PGO_GENERATE}"
                         "-fprofile-prefix-path=${CMAKE_BINARY_DIR}" -fprofile-update=single
                         ${augur_pgo_warnings})
  target_link_options(augur_settings INTERFACE "-fprofile-generate=${AUGUR_PGO_GENERATE}")
  return()
endif()

if(NOT AUGUR_PGO)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR AUGUR_SANITIZE OR NOT CMAKE_BUILD_TYPE STREQUAL "Release")
  message(STATUS "AUGUR_PGO: GCC Release builds without sanitizers only; building without a profile")
  return()
endif()

include(ExternalProject)
set(augur_pgo_root "${CMAKE_BINARY_DIR}/pgo")
set(augur_pgo_profile "${augur_pgo_root}/profile")
set(augur_pgo_build "${augur_pgo_root}/build")
ExternalProject_Add(augur_pgo_training
  SOURCE_DIR "${PROJECT_SOURCE_DIR}"
  BINARY_DIR "${augur_pgo_build}"
  PREFIX "${augur_pgo_root}"
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}"
    -DAUGUR_BUILD_TESTS=OFF
    "-DAUGUR_WERROR=${AUGUR_WERROR}"
    "-DAUGUR_STATIC_RUNTIME=${AUGUR_STATIC_RUNTIME}"
    -DAUGUR_PGO=OFF
    "-DAUGUR_PGO_GENERATE=${augur_pgo_profile}"
  BUILD_COMMAND "${CMAKE_COMMAND}" --build "${augur_pgo_build}" --target augur augur_ti_gen augur_dvm_gen
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  # Runs the training when the instrumented augur is newer than the last profile (else nothing).
  TEST_COMMAND "${CMAKE_COMMAND}" "-DAUGUR_BUILD=${augur_pgo_build}" "-DPROFILE=${augur_pgo_profile}"
               "-DSOURCE=${PROJECT_SOURCE_DIR}" -P "${PROJECT_SOURCE_DIR}/cmake/PgoTraining.cmake"
  TEST_AFTER_INSTALL ON
  USES_TERMINAL_BUILD ON
  USES_TERMINAL_TEST ON)

target_compile_options(augur_settings INTERFACE "-fprofile-use=${augur_pgo_profile}"
                       "-fprofile-prefix-path=${CMAKE_BINARY_DIR}" -fprofile-partial-training
                       # Targets the training does not run (tests, benchmark tools) have no profile.
                       -Wno-missing-profile ${augur_pgo_warnings})
# Every target built with augur::settings waits for the profile (an interface library's
# dependencies pass to the targets that link it).
add_dependencies(augur_settings augur_pgo_training)

# The training runs of the profile-guided build (cmake/Pgo.cmake), a CMake script:
#   cmake -DAUGUR_BUILD=<instrumented build> -DPROFILE=<profile folder> -DSOURCE=<source tree> -P PgoTraining.cmake
# Replays, with the instrumented augur, what users run: the bundled default scenario (TI traces,
# zstd), the synthetic workload from plain TI files and from the on-the-fly source (every analysis,
# and prediction only), the same on a fat tree and a torus of the flow-level network, and a
# generated Lib-DVM Jacobi trace on 1, 2x2 and 4x4 processors, with the text, JSON and HTML
# reports. Skipped when the profile is newer than the instrumented augur.
foreach(var AUGUR_BUILD PROFILE SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "PgoTraining.cmake: -D${var}=... is required")
  endif()
endforeach()

set(augur "${AUGUR_BUILD}/tools/augur")
set(stamp "${PROFILE}/trained.stamp")
if(EXISTS "${stamp}" AND "${stamp}" IS_NEWER_THAN "${augur}")
  return()
endif()

# A fresh profile: counts of an older build would not match its objects.
file(REMOVE_RECURSE "${PROFILE}")
set(work "${AUGUR_BUILD}/training")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")

function(train)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${SOURCE}" RESULT_VARIABLE rc
                  OUTPUT_FILE "${work}/last.out" ERROR_FILE "${work}/last.err")
  if(NOT rc EQUAL 0)
    file(READ "${work}/last.err" err)
    string(JOIN " " command ${ARGN})
    message(FATAL_ERROR "PGO training run failed (${rc}): ${command}\n${err}")
  endif()
endfunction()

string(TIMESTAMP started "%s")
set(reports --text "${work}/report.txt" --json "${work}/report.json" --html "${work}/report.html")
# The default scenario: prk-stencil at 4, 8 and 16 ranks from zstd TI files.
train("${augur}" run --jobs 1 ${reports})
# The synthetic workload from plain TI files, and from the on-the-fly source.
train("${AUGUR_BUILD}/tools/bench/augur_ti_gen" P=64,I=200 "${work}/ti64")
train("${augur}" run --trace "ti:${work}/ti64/trace.txt" --machine platform_cluster_64 --jobs 1 ${reports})
train("${augur}" run --trace "ti:${work}/ti64/trace.txt" --machine platform_cluster_64 --jobs 1
      --wait-states off --characteristics off)
train("${augur}" run --trace synthetic:P=1024,I=20 --machine platform_cluster_64 --jobs 1)
train("${augur}" run --trace synthetic:P=64,I=200 --machine platform_cluster_64 --jobs 1
      --wait-states off --characteristics off)
# The flow-level network with sharing on (fat tree, torus): without a profile GCC treats its code
# as cold and optimises it for size.
foreach(machine platform_fat_tree_64 torus_4x4x4)
  train("${augur}" run --trace synthetic:P=64,I=200 --machine ${machine} --jobs 1 --wait-states off --characteristics off)
endforeach()
# A Lib-DVM Jacobi program on one processor and on grids of 4 and 16.
train("${AUGUR_BUILD}/tools/bench/augur_dvm_gen" N=200,I=1000 "${work}/jacobi.ptr")
foreach(grid 1 2x2 4x4)
  train("${augur}" run --trace "dvm:${work}/jacobi.ptr" --machine dvm_mvs --grid ${grid} --jobs 1 ${reports})
endforeach()
# The bundled Lib-DVM sample, its scenario of machines and grids.
train("${augur}" run "${SOURCE}/scenarios/examples/dvm_jacobi_machines.yaml" --jobs 1)

file(REMOVE_RECURSE "${work}")
file(TOUCH "${stamp}")
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
message(STATUS "PGO training: profile written to ${PROFILE} in ${seconds} s")

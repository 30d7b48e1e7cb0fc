/* tools/validate: a PMPI shim linked into the native runs: rank 0 prints the wall time from the
 * end of MPI_Init to the start of MPI_Finalize, each behind a barrier ("validate: wall SECONDS"). */
#include <mpi.h>
#include <stdio.h>

static double start;

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  PMPI_Barrier(MPI_COMM_WORLD);
  start = PMPI_Wtime();
  return rc;
}

int MPI_Finalize(void) {
  PMPI_Barrier(MPI_COMM_WORLD);
  const double wall = PMPI_Wtime() - start;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) fprintf(stderr, "validate: wall %.9f\n", wall);
  return PMPI_Finalize();
}

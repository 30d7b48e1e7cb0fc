/* Sub-communicators: the ranks of a 2 x (P/2) grid split into rows and columns
 * (MPI_Comm_split); each row broadcasts 4 KiB from its first member, each column reduces 8
 * doubles to its first member, then a barrier and a 1 KiB allreduce on a duplicate of
 * MPI_COMM_WORLD (MPI_Comm_dup). Recorded by tools/otf2/record.sh. */
#include <mpi.h>
#include <stdlib.h>

static double work(int n) {
  double s = 0;
  for (int i = 1; i <= n; ++i) s += 1.0 / i;
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int cols = size / 2 > 0 ? size / 2 : 1;
  MPI_Comm row, col, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank / cols, rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % cols, rank, &col);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  char* buf = calloc(4096, 1);
  double x[8] = {0}, y[8], z[128] = {0}, t[128];
  for (int it = 0; it < 5; ++it) {
    x[0] = work(100000 * (rank + 1));
    MPI_Bcast(buf, 4096, MPI_BYTE, 0, row);
    MPI_Reduce(x, y, 8, MPI_DOUBLE, MPI_SUM, 0, col);
    MPI_Barrier(dup);
    MPI_Allreduce(z, t, 128, MPI_DOUBLE, MPI_SUM, dup);
  }
  free(buf);
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}

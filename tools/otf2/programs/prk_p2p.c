/* Parallel Research Kernels "Synch_p2p" (PRK's published definition: a 2-D grid of M x N points
 * whose columns are split among the ranks; a(i,j) = a(i-1,j) + a(i,j-1) - a(i-1,j-1) swept as a
 * pipeline, each rank receiving the left neighbour's value of row i before computing its part of
 * the row and sending its last value to the right; after each sweep the top-right corner goes
 * back to rank 0 as a(0,0) = -corner). Written from that definition, not from PRK's source.
 * Recorded by tools/otf2/record.sh. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { M = 64, N = 800, ITERS = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int w = N / size + 1; /* own columns, and column 0: the left neighbour's last one */
  double* a = calloc((size_t)M * w, sizeof(double));
  for (int j = 0; j < w; ++j) a[j] = (double)(rank * (w - 1) + j);
  for (int i = 0; i < M; ++i) a[i * w] = rank == 0 ? (double)i : 0.0;
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 1; i < M; ++i) {
      if (rank > 0) MPI_Recv(&a[i * w], 1, MPI_DOUBLE, rank - 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int j = 1; j < w; ++j) a[i * w + j] = a[(i - 1) * w + j] + a[i * w + j - 1] - a[(i - 1) * w + j - 1];
      if (rank < size - 1) MPI_Send(&a[i * w + w - 1], 1, MPI_DOUBLE, rank + 1, i, MPI_COMM_WORLD);
    }
    double corner = -a[(M - 1) * w + w - 1];
    if (size > 1) {
      if (rank == size - 1) MPI_Send(&corner, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      if (rank == 0) MPI_Recv(&corner, 1, MPI_DOUBLE, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) a[0] = corner;
  }
  double corner = a[(M - 1) * w + w - 1];
  MPI_Bcast(&corner, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  if (rank == 0 && corner == 0) fprintf(stderr, "prk_p2p: corner %g\n", corner);
  free(a);
  MPI_Finalize();
  return 0;
}

/* Parallel Research Kernels "Transpose" (MPI1 flavour; PRK's published definition: B += A^T for a
 * matrix of order N in column blocks, one block per rank, then A += 1; each of the P-1 phases sends
 * the block of column block (rank+phase) to that rank and receives one from rank-phase; the check
 * sums |B - expected| with MPI_Reduce). Written here from that definition, not from PRK's source;
 * non-blocking sends and blocking receives (EZTrace 2.0 records no receive completion).
 * Recorded by tools/otf2/record.sh. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 256, ITERS = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int cols = N / size, blk = cols * cols; /* N divisible by the process count */
  double* a = malloc(sizeof(double) * N * cols); /* column block: a[i * cols + j] = A(i, rank*cols+j) */
  double* b = calloc((size_t)N * cols, sizeof(double));
  double* out = malloc(sizeof(double) * blk);
  double* in = malloc(sizeof(double) * blk);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < cols; ++j) a[i * cols + j] = (double)N * (rank * cols + j) + i;
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 0; i < cols; ++i) /* the diagonal block */
      for (int j = 0; j < cols; ++j) b[(rank * cols + i) * cols + j] += a[(rank * cols + j) * cols + i];
    for (int phase = 1; phase < size; ++phase) {
      const int to = (rank + phase) % size, from = (rank - phase + size) % size;
      for (int i = 0; i < cols; ++i) /* rows of `to`'s block, transposed */
        for (int j = 0; j < cols; ++j) out[i * cols + j] = a[(to * cols + j) * cols + i];
      MPI_Request req;
      MPI_Isend(out, blk, MPI_DOUBLE, to, phase, MPI_COMM_WORLD, &req);
      MPI_Recv(in, blk, MPI_DOUBLE, from, phase, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (int i = 0; i < cols; ++i)
        for (int j = 0; j < cols; ++j) b[(from * cols + i) * cols + j] += in[i * cols + j];
    }
    for (int i = 0; i < N * cols; ++i) a[i] += 1.0;
  }
  double err = 0, total = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < cols; ++j) {
      const double expected = ITERS * ((double)N * i + rank * cols + j) + ITERS * (ITERS - 1) / 2.0;
      err += fabs(b[i * cols + j] - expected);
    }
  MPI_Reduce(&err, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && total > 1e-6) fprintf(stderr, "prk_transpose: error %g\n", total);
  free(a), free(b), free(out), free(in);
  MPI_Finalize();
  return 0;
}

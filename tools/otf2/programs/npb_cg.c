/* An NPB-CG-style kernel (after the NAS Parallel Benchmarks' CG definition: conjugate-gradient
 * iterations on a sparse symmetric matrix, each a matrix-vector product and two dot products).
 * Written from that definition with a 1-D row distribution — the vector p gathered with
 * MPI_Allgather before each product, the dot products summed with MPI_Allreduce — rather than
 * NPB's 2-D process grid; the matrix is a 5-point Laplacian of order N. Not NPB's source.
 * Recorded by tools/otf2/record.sh. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { SIDE = 128, N = SIDE * SIDE, ITERS = 15 };

static double dot(const double* x, const double* y, int n) {
  double local = 0, sum = 0;
  for (int i = 0; i < n; ++i) local += x[i] * y[i];
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rows = N / size, first = rank * rows; /* N divisible by the process count */
  double *x = calloc(rows, sizeof(double)), *r = malloc(sizeof(double) * rows);
  double *p = malloc(sizeof(double) * N), *q = malloc(sizeof(double) * rows);
  for (int i = 0; i < rows; ++i) r[i] = 1.0;
  double rho = dot(r, r, rows);
  for (int it = 0; it < ITERS; ++it) {
    /* p = r on the first iteration, then r + beta p (computed into q at the end of the last) */
    MPI_Allgather(it == 0 ? r : q, rows, MPI_DOUBLE, p, rows, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int i = 0; i < rows; ++i) { /* q = A p, A the 5-point Laplacian */
      const int g = first + i, gx = g % SIDE, gy = g / SIDE;
      double v = 4 * p[g];
      if (gx > 0) v -= p[g - 1];
      if (gx < SIDE - 1) v -= p[g + 1];
      if (gy > 0) v -= p[g - SIDE];
      if (gy < SIDE - 1) v -= p[g + SIDE];
      q[i] = v;
    }
    const double alpha = rho / dot(p + first, q, rows);
    for (int i = 0; i < rows; ++i) {
      x[i] += alpha * p[first + i];
      r[i] -= alpha * q[i];
    }
    const double rho_new = dot(r, r, rows), beta = rho_new / rho;
    rho = rho_new;
    for (int i = 0; i < rows; ++i) q[i] = r[i] + beta * p[first + i]; /* the next p, gathered next */
  }
  if (rank == 0 && !(sqrt(rho) >= 0)) fprintf(stderr, "npb_cg: residual %g\n", sqrt(rho));
  free(x), free(r), free(p), free(q);
  MPI_Finalize();
  return 0;
}

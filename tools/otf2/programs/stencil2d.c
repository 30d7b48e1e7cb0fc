/* 2-D Jacobi stencil on a px x py process grid (MPI_Dims_create): each iteration exchanges halo
 * rows and columns with the four neighbours (MPI_Isend, MPI_Recv, MPI_Waitall on the sends: EZTrace
 * 2.0 records no completion of an MPI_Irecv, so the receives are blocking), updates the local
 * block and, every 5th iteration, takes the residual with MPI_Allreduce. Recorded by
 * tools/otf2/record.sh. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { N = 96, ITERS = 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0, dims[2] = {0, 0}, periods[2] = {0, 0}, nbr[4];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_shift(grid, 0, 1, &nbr[0], &nbr[1]);
  MPI_Cart_shift(grid, 1, 1, &nbr[2], &nbr[3]);
  const int w = N + 2;
  double* u = calloc((size_t)w * w, sizeof(double));
  double* v = calloc((size_t)w * w, sizeof(double));
  double col_out[2][N], col_in[2][N];
  for (int i = 0; i < w * w; ++i) u[i] = (double)(rank + i % 7);
  for (int it = 0; it < ITERS; ++it) {
    MPI_Request req[4];
    int n = 0;
    for (int i = 0; i < N; ++i) {
      col_out[0][i] = u[(i + 1) * w + 1];
      col_out[1][i] = u[(i + 1) * w + N];
    }
    MPI_Isend(&u[w + 1], N, MPI_DOUBLE, nbr[0], 1, grid, &req[n++]);
    MPI_Isend(&u[N * w + 1], N, MPI_DOUBLE, nbr[1], 0, grid, &req[n++]);
    MPI_Isend(col_out[0], N, MPI_DOUBLE, nbr[2], 3, grid, &req[n++]);
    MPI_Isend(col_out[1], N, MPI_DOUBLE, nbr[3], 2, grid, &req[n++]);
    if (nbr[0] != MPI_PROC_NULL) MPI_Recv(&u[1], N, MPI_DOUBLE, nbr[0], 0, grid, MPI_STATUS_IGNORE);
    if (nbr[1] != MPI_PROC_NULL) MPI_Recv(&u[(N + 1) * w + 1], N, MPI_DOUBLE, nbr[1], 1, grid, MPI_STATUS_IGNORE);
    if (nbr[2] != MPI_PROC_NULL) MPI_Recv(col_in[0], N, MPI_DOUBLE, nbr[2], 2, grid, MPI_STATUS_IGNORE);
    if (nbr[3] != MPI_PROC_NULL) MPI_Recv(col_in[1], N, MPI_DOUBLE, nbr[3], 3, grid, MPI_STATUS_IGNORE);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (nbr[2] != MPI_PROC_NULL)
      for (int i = 0; i < N; ++i) u[(i + 1) * w] = col_in[0][i];
    if (nbr[3] != MPI_PROC_NULL)
      for (int i = 0; i < N; ++i) u[(i + 1) * w + N + 1] = col_in[1][i];
    double local = 0;
    for (int rep = 0; rep < 20; ++rep)
      for (int i = 1; i <= N; ++i)
        for (int j = 1; j <= N; ++j) {
          const int k = i * w + j;
          v[k] = 0.25 * (u[k - 1] + u[k + 1] + u[k - w] + u[k + w]);
          local += (v[k] - u[k]) * (v[k] - u[k]);
        }
    memcpy(u, v, sizeof(double) * (size_t)w * w);
    if (it % 5 == 4) {
      double global = 0;
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, grid);
      u[w + 1] += global * 1e-30;
    }
  }
  free(u);
  free(v);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}

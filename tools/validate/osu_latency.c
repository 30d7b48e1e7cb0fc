/* tools/validate: a ping-pong between ranks 0 and 1 printing OSU micro-benchmarks' osu_latency
 * table (size, one-way latency in us: half the median round trip — the median, not OSU's mean,
 * because this machine is shared and a few preempted round trips would dominate a mean), which
 * `augur calibrate osu_latency=FILE` turns into a machine. Sizes up to 256 KiB, the programs' range. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buf = calloc(1 << 18, 1);
  double* trip = malloc(sizeof(double) * 1000);
  if (rank == 0) printf("# OSU MPI Latency Test (augur tools/validate)\n# Size          Latency (us)\n");
  for (int size = 0; size <= (1 << 18); size = size ? size * 2 : 1) {
    const int iters = size > (1 << 16) ? 100 : 1000, skip = 10;
    for (int i = 0; i < iters + skip; ++i) {
      const double t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      }
      if (i >= skip) trip[i - skip] = MPI_Wtime() - t0;
    }
    qsort(trip, (size_t)iters, sizeof(double), by_value);
    if (rank == 0) printf("%-16d%.2f\n", size, trip[iters / 2] * 1e6 / 2.0);
  }
  free(buf);
  free(trip);
  MPI_Finalize();
  return 0;
}

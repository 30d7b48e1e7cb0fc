/* Ping-pong between ranks 0 and 1: messages of 1 KiB to 256 KiB, 4 round trips each, a short
 * computation between sizes. Recorded by tools/otf2/record.sh. */
#include <mpi.h>
#include <stdlib.h>

static double work(int n) {
  double s = 0;
  for (int i = 1; i <= n; ++i) s += 1.0 / i;
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buf = calloc(1 << 18, 1);
  double sink = 0;
  for (int bytes = 1 << 10; bytes <= 1 << 18; bytes <<= 2) {
    for (int k = 0; k < 4; ++k) {
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, 1, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, 20, MPI_COMM_WORLD);
      }
    }
    sink += work(200000);
  }
  buf[0] = (char)sink;
  free(buf);
  MPI_Finalize();
  return 0;
}

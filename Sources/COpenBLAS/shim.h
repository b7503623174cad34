// OpenBLAS through Debian's libopenblas-dev (pkg-config `openblas`).
// cblas.h declares cblas_sgemm, cblas_sgbmv and the openblas_* extensions
// (openblas_get_corename, openblas_get_config, openblas_get_num_threads,
// openblas_set_num_threads). Only the SleetBLAS module imports it (and the
// SleetBLAS tests, to read OpenBLAS's state).
#include <cblas.h>

// OpenBLAS through Debian's libopenblas-dev (pkg-config `openblas`).
// cblas.h declares cblas_sgemm and the openblas_* extensions
// (openblas_get_corename, openblas_get_config, openblas_get_num_threads,
// openblas_set_num_threads). Only SleetMath/Internals/BLAS.swift calls them
// from the library; the tools call them to report the environment.
#include <cblas.h>

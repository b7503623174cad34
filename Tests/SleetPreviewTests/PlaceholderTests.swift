// Replaced by the renderer tests of issue 5.

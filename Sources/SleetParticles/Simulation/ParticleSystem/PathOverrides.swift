import SleetMath

/// Where a ``ParticleSystem`` has two paths that give the same bits — a fast
/// one and its plainer twin — which one it takes. Every default is the
/// production path; tests (and benchmarks) turn one off to compare the two
/// on the same effect (`ParticleSystem.paths`).
package struct PathOverrides: Sendable, Equatable {
  /// Keeps a store per cell where the effect can
  /// (ParticleSystem+CellStores.swift); false: the single store. Chosen
  /// before the first seek or step.
  package var cellStores = true
  /// One-cell effects and cell stores append whole batches of eight births
  /// as slab blocks (``ParticleSystem/appendAliveBirths(node:into:after:through:at:)``);
  /// false: record by record.
  package var blockAppend = true
  /// The birth kernels run their AVX2 copy: where the CPU has AVX2; false
  /// runs the build's copy.
  package var avx2BirthKernels = SIMDBuildTarget.runsAVX2Kernels
  /// Frames of several cells drawn by id are written straight in cell order
  /// (``ParticleStore/evaluateByCell(blocks:at:into:cursors:)``); false: the
  /// store-order write and the sort.
  package var cellOrderWrite = true
  /// Steps and seeks keep the sub-cells' parents between calls
  /// (`ParentBirths`); false: enumerated anew.
  package var parentBirthCache = true
  /// Sub-cells' births are sampled eight at a time (``ChildBirthBatch``);
  /// false: the scalar sampler.
  package var childBirthBatches = true
  /// `unordered`, `additive` and `backToFront` frames take their id order
  /// from the previous frame's (``IncrementalIDOrder``); false: a full radix
  /// sort.
  package var incrementalIDOrder = true
  /// Integrated behavior motion resumes from each particle's last grid point
  /// (``IntegratorCache``); false: every evaluation integrates from birth
  /// (what a seek to a new time costs, which benchmarks measure).
  package var integratorCache = true

  /// The production paths.
  package init() {}
}

/// Counts of fast paths taken since the system was made, so that a test can
/// check that the path it compares actually ran.
package struct PathDiagnostics: Sendable, Equatable {
  /// Batches sampled by ``ChildBirthBatch``.
  package internal(set) var childBatchesSampled = 0
  /// Sub-cell parents skipped by their ``ChildCursor``.
  package internal(set) var childCursorSkips = 0
}

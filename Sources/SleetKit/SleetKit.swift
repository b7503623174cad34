// The SleetKit umbrella: `import SleetKit` brings every public module. It
// defines nothing of its own.
@_exported import SleetBLAS
@_exported import SleetImport
@_exported import SleetMath
@_exported import SleetParticles
@_exported import SleetPreview
@_exported import SleetShatter
@_exported import SleetTransitions

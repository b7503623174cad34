// Replaced by the benchmark harness of issue 2.
print("sleet-bench: harness not yet written")

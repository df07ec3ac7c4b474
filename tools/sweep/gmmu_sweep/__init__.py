"""gmmu_sweep - parameter sweeps of the GMMU C model (docs/sweep.md)."""

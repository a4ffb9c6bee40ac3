"""What a sandboxed child runs and speaks: the worker, the codec of values, the protocol's records."""

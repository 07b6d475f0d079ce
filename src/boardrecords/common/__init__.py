"""What every layer may use and none owns: the worker pool that `verify` and `import` share, and the guards that
end its helper processes with the command. It imports nothing of the four layers above it."""

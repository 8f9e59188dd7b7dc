package engine

// optimize gates every accelerator of the engine: the word-sized
// conversion paths and the fixed-point logarithms and exponentials. Each
// accelerator returns exactly what the plain path returns, or declines; the
// engine's tests run once with it on and once with it off (TestMain).
var optimize = true

// Found through -isystem: a system header, never instrumented.
#pragma once
inline int sys_helper(int x) { return x + 1; }

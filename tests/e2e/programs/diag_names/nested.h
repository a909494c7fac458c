// Included from a header; defines no function.
#pragma once
#warning "nested.h warns"

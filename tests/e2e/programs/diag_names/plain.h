// Defines no function: hcc does not rewrite it.
#pragma once
#warning "plain.h warns"

#ifndef DICE_CEDITLINE_SHIM_H
#define DICE_CEDITLINE_SHIM_H
#include <stdio.h>
#include <histedit.h>
#endif

#ifndef SHAPES_H
#define SHAPES_H
/* Included by main.c and shapes.c, not by text.c. */
double circle_area(double r);
double square_area(double a);
#endif

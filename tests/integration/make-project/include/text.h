#ifndef TEXT_H
#define TEXT_H
/* Included by main.c and text.c, not by shapes.c. */
void print_area(const char *what, double area);
#endif

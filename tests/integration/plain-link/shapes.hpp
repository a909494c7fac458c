#pragma once
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  explicit Square(double s) : side_(s) {}
  double area() const override;
  double side_;
};
struct Circle : Shape {
  explicit Circle(double r) : r_(r) {}
  double area() const override;
  double r_;
};
double total_area(const std::vector<std::unique_ptr<Shape>> &shapes);
int checked(int x);

// example-cpp.cc — the runtime from C++: the same headers, the same macros.
//
//   example-cpp --trace=cpu,log --tracefile=cpp.strobe
//   strobe-cli stats cpp.strobe && strobe-cli log cpp.strobe
#include <string>
#include <vector>

#include <strobe/strobe.h>

STROBE_LOG_CATEGORY_DEFINE (LogCpp, STROBE_LOG_VERBOSITY_LOG);

namespace
{
struct Shape
{
  virtual ~Shape () = default;
  virtual double area () const = 0;
  virtual const char *name () const = 0;
};

struct Square : Shape
{
  double side;
  explicit Square (double s) : side (s) {}
  double area () const override { return side * side; }
  const char *name () const override { return "Square::area"; }
};

struct Circle : Shape
{
  double radius;
  explicit Circle (double r) : radius (r) {}
  double area () const override { return 3.14159265358979 * radius * radius; }
  const char *name () const override { return "Circle::area"; }
};
}

int
main (int argc, char **argv)
{
  strobe_parse_args (&argc, &argv);
  strobe_init (nullptr);

  std::vector<Shape *> shapes;
  for (int i = 0; i < 50; i++)
    shapes.push_back (i % 2 ? static_cast<Shape *> (new Square (i)) : new Circle (i));

  double total = 0;
  {
    STROBE_CPU_SCOPE ("Sum areas");
    for (const Shape *s : shapes)
      {
        // A scope per virtual call, named by the dynamic type.
        STROBE_CPU_SCOPE_DYNAMIC (s->name ());
        total += s->area ();
      }
  }
  STROBE_LOG_MESSAGE (LogCpp, STROBE_LOG_DISPLAY, "total area of %zu shapes: %.1f", shapes.size (), total);

  for (Shape *s : shapes)
    delete s;
  strobe_shutdown ();
  return 0;
}

package shapes

sealed trait Shape:
  def area: Double

final case class Circle(r: Double) extends Shape:
  def area: Double = math.Pi * r * r

final case class Rect(w: Double, h: Double) extends Shape:
  def area: Double = w * h

enum Color:
  case Red, Green, Blue

trait Show[A]:
  extension (a: A) def show: String

given Show[Shape] with
  extension (s: Shape) def show: String = s match
    case Circle(r) => f"circle($r%.1f)"
    case Rect(w, h) => f"rect($w%.1f x $h%.1f)"

object Main:
  def describe[A: Show](xs: List[A]): String = xs.map(_.show).mkString(", ")

  @main def run(): Unit =
    val shapes = List(Circle(1), Rect(2, 3), Circle(0.5)) ++ (1 to 5).map(i => Rect(i, i + 1))
    val byKind = shapes.groupBy(_.getClass.getSimpleName).view.mapValues(_.map(_.area).sum).toMap
    println(describe(shapes))
    println(byKind.toList.sortBy(_._1))
    println(Color.values.map(c => c -> c.ordinal).mkString(" "))

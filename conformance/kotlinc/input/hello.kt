package demo

data class Point(val x: Int, val y: Int) {
    operator fun plus(o: Point) = Point(x + o.x, y + o.y)
}

sealed interface Expr
data class Num(val v: Int) : Expr
data class Add(val l: Expr, val r: Expr) : Expr
data class Mul(val l: Expr, val r: Expr) : Expr

fun eval(e: Expr): Int = when (e) {
    is Num -> e.v
    is Add -> eval(e.l) + eval(e.r)
    is Mul -> eval(e.l) * eval(e.r)
}

inline fun <reified T> describe(x: Any) = if (x is T) "yes" else "no"

fun main() {
    val pts = (1..10).map { Point(it, it * it) }.reduce(Point::plus)
    println(pts)
    println(eval(Add(Num(2), Mul(Num(3), Num(4)))))
    println(describe<String>("s") + describe<Int>("s"))
    println(generateSequence(1) { it * 3 }.takeWhile { it < 10000 }.toList())
}

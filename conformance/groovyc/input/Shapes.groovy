import groovy.transform.CompileStatic
import groovy.transform.ToString

@ToString
abstract class Shape {
    abstract double area()
}

@ToString(includeSuper = true)
class Circle extends Shape {
    double r
    double area() { Math.PI * r * r }
}

@CompileStatic
class Rect extends Shape {
    double w, h
    double area() { w * h }
    String toString() { "Rect($w x $h)" }
}

class Shapes {
    static void main(String[] args) {
        def shapes = (1..20).collect { it % 2 ? new Circle(r: it) : new Rect(w: it, h: it / 2) }
        shapes.sort { it.area() }.each { println "${it} -> ${String.format('%.2f', it.area())}" }
        println "total ${shapes.sum { it.area() }}"
    }
}

import groovy.json.JsonOutput
import groovy.xml.MarkupBuilder

def words = new File('text.txt').text.toLowerCase().findAll(/[a-z]+/)
println words.countBy { it }.sort { a, b -> b.value <=> a.value ?: a.key <=> b.key }.take(10)
def w = new StringWriter()
new MarkupBuilder(w).books { (1..3).each { i -> book(id: i) { title("Book $i") } } }
println w
println JsonOutput.prettyPrint(JsonOutput.toJson([a: 1, b: [1, 2, 3], c: [d: 'e']]))
def memo = { n -> n < 2 ? n : call(n - 1) + call(n - 2) }.memoize()
println((0..30).collect(memo).last())
println GroovySystem.version.split(/\./)[0]

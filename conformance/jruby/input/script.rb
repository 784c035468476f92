require 'json'
require 'set'

def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
puts "fib(24) = #{fib(24)}"
words = File.read('text.txt').downcase.scan(/[a-z]+/)
counts = words.tally.sort_by { |w, c| [-c, w] }.first(10)
puts counts.inspect
Point = Struct.new(:x, :y) do
  def +(o) = Point.new(x + o.x, y + o.y)
end
puts (1..100).map { |i| Point.new(i, i * 2) }.reduce(:+).inspect
puts JSON.generate({ 'set' => Set.new([3, 1, 2]).to_a.sort, 'h' => { 'b' => 1, 'a' => 2 }.sort.to_h })
puts (1..5).each_slice(2).map(&:sum).inspect

(ns script (:require [clojure.string :as str] [clojure.set :as set]))

(defn primes [n]
  (loop [s (range 2 n) acc []]
    (if-let [p (first s)]
      (recur (remove #(zero? (mod % p)) s) (conj acc p))
      acc)))

(println "primes:" (count (primes 3000)))
(def words (re-seq #"[a-z]+" (str/lower-case (slurp "text.txt"))))
(println (take 10 (sort-by (fn [[w c]] [(- c) w]) (frequencies words))))
(println (set/union #{1 2 3} #{3 4}))
(println (->> (range 1000) (filter odd?) (map #(* % %)) (reduce +)))
(println @(future (reduce + (pmap #(* % 2) (range 100)))))
(shutdown-agents)

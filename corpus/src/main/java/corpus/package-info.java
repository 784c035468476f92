/**
 * Programs that the end-to-end tests (module {@code tests}) and the demo record and replay, one
 * package per topic ({@code corpus.single}, {@code corpus.threads}, ...), each exercising sources
 * of nondeterminism.
 *
 * <p>To add a program: write it in the package of its topic, with a {@code public static void
 * main}, and annotate its class with {@link corpus.Expect} (its exit status, the orderings to
 * record under, whether plain runs differ). The tests' {@code CorpusTest} finds it in the corpus
 * jar, records it and checks its replays; nothing else to register. A program that needs a
 * test of its own (arguments, output to inspect, a divergence) is named by that test instead:
 * {@code CorpusTest} fails for a program neither annotated nor named by any test source.
 */
package corpus;

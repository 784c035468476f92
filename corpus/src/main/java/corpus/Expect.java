package corpus;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the tests expect of this program under the standard protocol, which the tests'
 * {@code CorpusTest} runs for every class of the corpus jar carrying this annotation: record the
 * program (no arguments) with {@code reprise record --order O} under each of {@link #orders()},
 * check the recording's exit status is {@link #status()}, then replay it three times with chaos
 * seeds 1 to 3 and check each replay's stdout, stderr (without Reprise's own lines) and exit
 * status are byte for byte the recording's. Each (program, order) is a test case of its own.
 *
 * <p>A program whose test must check more than that (its output, an {@code inspect} of the
 * recording, a divergence, a killed recording) has a test of its own instead and names the
 * program there.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Expect {
    /**
     * The orderings to record under, as {@code reprise record --order} spells them. Both by
     * default: a multi-threaded program's events are written differently under each.
     */
    String[] orders() default {"rto", "to"};

    /** The exit status of the recording, and so of every replay. */
    int status() default 0;

    /**
     * Whether plain runs, without Reprise, print different stdout: one run of up to five differs
     * from the first (two alone may agree by chance). It shows the program does exercise a source
     * of nondeterminism, so that its replays matching means something.
     */
    boolean plainRunsDiffer() default false;
}

package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options Reprise adds to the program's command: room in metaspace for its own classes,
 * so that they do not bring the program's first metadata collection forward; an option the user
 * gives wins. And one a user may give: every class verified.
 */
class JvmOptionsTest {
    private static final long MIB = 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void theProgramGetsMetaspaceRoomForRepriseUnlessItAsksForItsOwn() throws Exception {
        Path app = tmp.resolve("app.jar");
        Programs.buildMain(app, "System.out.println(java.lang.management.ManagementFactory.getPlatformMXBean("
                + "com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption(\"MetaspaceSize\").getValue());");
        Run plain = Reprise.exec(List.of(Reprise.JAVA, "-cp", app.toString(), "app.Main"), null, Map.of(), null);
        assertEquals(0, plain.status(), plain::toString);
        long byDefault = Long.parseLong(plain.stdout().strip());

        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, List.of(Reprise.JAVA, "-cp", app.toString(), "app.Main"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(byDefault + 8 * MIB, Long.parseLong(recorded.stdout().strip()), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);

        Path own = tmp.resolve("own");
        Run asked = Reprise.record(own, List.of(Reprise.JAVA, "-XX:MetaspaceSize=64m", "-cp", app.toString(), "app.Main"));
        assertEquals(0, asked.status(), asked::toString);
        assertEquals(64 * MIB, Long.parseLong(asked.stdout().strip()), asked::toString);
        Reprise.assertReplaysMatch(own, asked, 2);
    }

    /**
     * With {@code -Xverify:all} the JVM verifies the JDK classes Reprise rewrites, the unbracketed
     * copies of {@code ConcurrentHashMap}'s methods among them (corpus.juc.AloneThenShared), and
     * start-up does not redefine classes from bytes kept by the run before, made without it.
     */
    @Test
    void aProgramWhoseClassesAreAllVerifiedIsRecordedAndReplayed() {
        Run before = Reprise.record(tmp.resolve("before"), Reprise.corpus("corpus.juc.AloneThenShared"));
        assertEquals(0, before.status(), before::toString);
        List<String> verified = new ArrayList<>(Reprise.corpus("corpus.juc.AloneThenShared"));
        verified.add(1, "-Xverify:all");
        Path rec = tmp.resolve("verified");
        Run recorded = Reprise.record(rec, verified);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("alone: size 307, sum "), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);
    }
}

package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.jdi.ClassType;
import com.sun.jdi.IntegerValue;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.LocatableEvent;
import com.sun.jdi.event.StepEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.StepRequest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --debug[=PORT]} under a real JDWP client (JDI, as IDEs use it), on
 * {@code corpus.debug.Stockroom}, whose source marks with {@code debugger:} the lines a breakpoint
 * goes on. Whatever the debugger does (breakpoints, steps, methods it invokes, a thread it holds
 * for longer than a replay may stall), the replay then runs to the recorded end with the recorded
 * output and status; {@code --stop-at} lets the debugger in at a recorded event, at the exit, or
 * at an exception nothing catches.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DebuggerTest {
    private static final String STOCKROOM = "corpus.debug.Stockroom";

    @TempDir
    static Path tmp;
    private static Path rec;
    private static Run recorded;

    @BeforeAll
    static void record() {
        rec = tmp.resolve("stockroom");
        recorded = Reprise.record(rec, corpus(STOCKROOM));
        assertEquals(1, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("IllegalStateException: out of"), recorded::toString);
    }

    /** Every replay a test started, ended after it whether it passed or not. */
    @RegisterExtension
    final Debugging.Sessions sessions = new Debugging.Sessions();

    private Debugging debug(Path recording, String... options) throws Exception {
        return sessions.start(recording, options);
    }

    @Test
    void replayUnderADebuggerRunsAsRecorded() throws Exception {
        for (String main : new String[] {"corpus.single.Clocks", "corpus.threads.Monitors"}) {
            Path other = tmp.resolve(main);
            Run recordedOther = Reprise.record(other, corpus(main));
            assertEquals(0, recordedOther.status(), recordedOther::toString);
            Debugging d = debug(other);
            d.vm.resume();
            Run replayed = d.finish();
            assertSameRun(recordedOther, replayed);
            assertTrue(replayed.stderr().contains("reprise: waiting for a debugger on port"), replayed::toString);
        }
    }

    /**
     * Breakpoints, reading locals and fields, step into (past the JDK's and Reprise's frames, as
     * an IDE's step filters do), step over, and an invoked {@code toString()} of a map whose keys
     * print their identity hashes: the debugger sees what the program prints, and the replay is
     * unchanged.
     */
    @Test
    void breakpointsStepsAndInvokedMethodsLeaveTheReplayAsRecorded() throws Exception {
        Debugging d = debug(rec);
        ReferenceType stockroom = d.prepared(STOCKROOM);
        BreakpointRequest bp = d.breakpoint(stockroom, "debugger: step here", EventRequest.SUSPEND_ALL);

        BreakpointEvent first = d.next(BreakpointEvent.class);
        ThreadReference main = first.thread();
        StackFrame weigh = main.frame(0);
        assertEquals("weigh", weigh.location().method().name());
        assertEquals(0, ((IntegerValue) weigh.getValue(weigh.visibleVariableByName("total"))).value());
        assertEquals(60, ((IntegerValue) stockroom.getValue(stockroom.fieldByName("moved"))).value());
        ObjectReference stock = (ObjectReference) weigh.getValue(weigh.visibleVariableByName("stock"));
        Method toString = stock.referenceType().methodsByName("toString", "()Ljava/lang/String;").get(0);
        String shown = ((StringReference) stock.invokeMethod(main, toString, List.of(), 0)).value();
        Method audit = stockroom.methodsByName("audit").get(0);
        String audited = ((StringReference) ((ClassType) stockroom).invokeMethod(main, audit, List.of(stock), 0)).value();
        assertEquals("5 kinds, audited at a time", audited, "a method that reads the clock and locks, run live");

        d.step(main, StepRequest.STEP_INTO);
        StackFrame weight = d.next(StepEvent.class).thread().frame(0);
        assertEquals("weight", weight.location().method().name(), "step into lands in the program's method");
        int count = ((IntegerValue) weight.getArgumentValues().get(1)).value();
        ObjectReference item = (ObjectReference) weight.getArgumentValues().get(0);
        String name = ((StringReference) item.getValue(item.referenceType().fieldByName("name"))).value();
        assertEquals(name.length(), count, "the item's count is its name's length");
        d.vm.resume();

        BreakpointEvent second = d.next(BreakpointEvent.class);
        int line = second.location().lineNumber();
        d.step(second.thread(), StepRequest.STEP_OVER);
        Location over = d.next(StepEvent.class).location();
        assertEquals("weigh", over.method().name(), "step over stays in the method");
        assertTrue(over.lineNumber() != line, "step over leaves the line");
        bp.disable();
        d.vm.resume();

        Run replayed = d.finish();
        assertSameRun(recorded, replayed);
        assertTrue(replayed.stdout().contains("stock " + shown + "\n"), () -> "the debugger's toString() was " + shown
                + "\n" + replayed);
    }

    /**
     * The clerk, waiting for main to open the stockroom, is suspended there, then main goes on,
     * and the clerk is held for longer than a stalled replay takes to be reported: main waits for
     * its turns. Resumed, the replay goes on to the recorded end.
     */
    @Test
    void aThreadTheDebuggerHoldsKeepsTheOthersWaitingWithoutAStallReport() throws Exception {
        Debugging d = debug(rec);
        ReferenceType stockroom = d.prepared(STOCKROOM);
        BreakpointRequest bp = d.breakpoint(stockroom, "debugger: hold main", EventRequest.SUSPEND_EVENT_THREAD);
        ThreadReference main = d.next(BreakpointEvent.class).thread();
        bp.disable();
        ThreadReference clerk = d.thread("clerk");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // Waiting in wait(), or for the monitor main holds: either way not running.
        while (clerk.status() != ThreadReference.THREAD_STATUS_WAIT && clerk.status() != ThreadReference.THREAD_STATUS_MONITOR) {
            assertTrue(System.nanoTime() < deadline, "the clerk waits for main (status " + clerk.status() + ")");
            Thread.sleep(20);
        }
        clerk.suspend();
        main.resume();
        Thread.sleep(TimeUnit.SECONDS.toMillis(8)); // the replay's stall report comes after 5 s without progress
        clerk.resume();
        Run replayed = d.finish();
        assertSameRun(recorded, replayed);
        assertFalse(replayed.stderr().contains("stuck"), replayed::toString);
    }

    /** {@code --stop-at THREAD:EVENT}: main stands just before its event, the one that reads the clock. */
    @Test
    void stopsBeforeARecordedEvent() throws Exception {
        Run events = Reprise.reprise(List.of("inspect", rec.toString(), "--events", "1"), null, Map.of(), null);
        String clock = events.stdout().lines().filter(l -> l.contains("time.nanos")).findFirst().orElseThrow();
        long event = Long.parseLong(clock.trim().split("\\s+")[0]);

        Debugging d = debug(rec, "--stop-at", "1:" + event);
        ThreadReference main = d.thread("main");
        assertTrue(main.isSuspended());
        assertEquals("stopped", main.frame(0).location().method().name());
        Location program = firstFrameOf(main, STOCKROOM);
        assertEquals(lineOf("long started = System.nanoTime()"), program.lineNumber(), "main stands at its clock read");
        d.vm.resume();
        Run replayed = d.finish();
        assertSameRun(recorded, replayed);
        assertTrue(replayed.stderr().contains("reprise: stopped at 1:" + event + "; waiting for a debugger on port"),
                replayed::toString);
    }

    @Test
    void stopsAtTheExitAndAtAnExceptionNothingCatches() throws Exception {
        Debugging atExit = debug(rec, "--stop-at", "exit");
        ReferenceType stockroom = atExit.vm.classesByName(STOCKROOM).get(0);
        assertEquals(60, ((IntegerValue) stockroom.getValue(stockroom.fieldByName("moved"))).value(),
                "the program's last state");
        atExit.vm.resume();
        assertSameRun(recorded, atExit.finish());

        Debugging atThrow = debug(rec, "--stop-at", "exception");
        Location thrower = atThrow.thread("main").frame(0).location();
        assertEquals(STOCKROOM, thrower.declaringType().name());
        assertEquals(lineOf("throw new IllegalStateException"), thrower.lineNumber());
        atThrow.vm.resume();
        assertSameRun(recorded, atThrow.finish());
    }

    @Test
    void aStopTheRecordingDoesNotHaveIsAUsageError() {
        for (String[] bad : new String[][] {{"9:1", "no thread 9"}, {"1:99999999", "thread 1 recorded events 0 to"},
                {"soon", "wants THREAD:EVENT"}}) {
            Run r = Reprise.replay(rec, "--stop-at", bad[0]);
            assertEquals(2, r.status(), r::toString);
            assertTrue(r.stderr().startsWith("reprise: --stop-at"), r::toString);
            assertTrue(r.stderr().contains(bad[1]), r::toString);
        }
    }

    private static void assertSameRun(Run expected, Run replayed) {
        assertEquals(expected.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(expected.programStderr(), replayed.programStderr(), replayed::toString);
        assertEquals(expected.status(), replayed.status(), replayed::toString);
    }

    private static Location firstFrameOf(ThreadReference t, String className) throws Exception {
        for (StackFrame f : t.frames()) {
            if (f.location().declaringType().name().equals(className)) {
                return f.location();
            }
        }
        throw new AssertionError("no frame of " + className + " on " + t.name());
    }

    /** The line of Stockroom's source that holds {@code text}. */
    static int lineOf(String text) throws IOException {
        return Debugging.lineOf(STOCKROOM, text);
    }
}

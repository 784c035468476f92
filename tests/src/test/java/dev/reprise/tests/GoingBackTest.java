package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.jdi.IntegerValue;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectCollectedException;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.StepEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.StepRequest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reprise back}, run as a user runs it from another terminal, while a JDI client (as IDEs
 * use) holds a replay of {@code corpus.debug.Ledger} suspended: the replay is restarted and the
 * same debugger connection is brought to the previous hit of its breakpoint, or to before a
 * recorded event. The debugger's breakpoint, threads, classes and fields keep working; objects of
 * the replaced JVM answer as collected; the replay then ends with the recorded output, once, and
 * the recorded status.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GoingBackTest {
    private static final String LEDGER = "corpus.debug.Ledger";
    private static final String EACH_ROUND = "debugger: each round";
    private static final Pattern ROUND = Pattern.compile("round (\\d+): round\\d+=(\\d+)@\\p{XDigit}+, balance (\\d+)");

    @TempDir
    static Path tmp;
    private static Path rec;
    private static Run recorded;
    /** Per round, from 1, the balance the recording printed. */
    private static final List<Integer> BALANCES = new ArrayList<>();

    @BeforeAll
    static void record() {
        rec = tmp.resolve("ledger");
        recorded = Reprise.record(rec, corpus(LEDGER));
        assertEquals(0, recorded.status(), recorded::toString);
        BALANCES.add(0);
        Matcher m = ROUND.matcher(recorded.stdout());
        while (m.find()) {
            BALANCES.add(Integer.parseInt(m.group(3)));
        }
        assertEquals(6, BALANCES.size(), recorded::toString);
    }

    /** Every replay a test started, ended after it whether it passed or not. */
    @RegisterExtension
    final Debugging.Sessions sessions = new Debugging.Sessions();

    private Debugging debug() throws Exception {
        return sessions.start(rec);
    }

    /**
     * Three hits, then back to the second: the same connection gets its own breakpoint's event,
     * reads the second hit's locals, a field of an object of the new JVM and a static field of a
     * class it knew, invokes a method, and steps; an object of the old JVM answers as collected. Then back again,
     * to the first hit, in a third JVM.
     */
    @Test
    void backToThePreviousHitOfTheBreakpoint() throws Exception {
        Debugging d = debug();
        ReferenceType ledger = d.prepared(LEDGER);
        BreakpointRequest bp = d.breakpoint(ledger, EACH_ROUND, EventRequest.SUSPEND_ALL);
        ThreadReference main = null;
        ObjectReference third = null;
        for (int hit = 1; hit <= 3; hit++) {
            BreakpointEvent e = d.next(BreakpointEvent.class);
            main = e.thread();
            assertEquals(BALANCES.get(hit), local(main.frame(0), "balance"), "hit " + hit);
            third = (ObjectReference) main.frame(0).getValue(main.frame(0).visibleVariableByName("entry"));
            if (hit < 3) {
                d.vm.resume();
            }
        }

        ThreadReference auditor = d.thread("auditor");

        Run back = back(d, List.of());
        assertEquals(0, back.status(), back::toString);
        assertTrue(back.stderr().contains("went back at the breakpoint's hit 2"), back::toString);

        BreakpointEvent again = d.next(BreakpointEvent.class);
        assertSame(bp, again.request(), "the event is the debugger's own breakpoint's");
        assertSame(main, again.thread(), "main is the thread the debugger knew");
        assertSame(auditor, d.thread("auditor"), "so is the auditor");
        assertTrue(auditor.frames().stream().anyMatch(f -> f.location().method().name().equals("audit")),
                "the auditor waits in audit, in the new JVM");
        StackFrame frame = again.thread().frame(0);
        int line = frame.location().lineNumber();
        assertEquals(Debugging.lineOf(LEDGER, EACH_ROUND), line);
        assertEquals(BALANCES.get(2), local(frame, "balance"), "the second hit's balance");
        ObjectReference entry = (ObjectReference) frame.getValue(frame.visibleVariableByName("entry"));
        ReferenceType entryType = entry.referenceType();
        assertEquals("round2", ((StringReference) entry.getValue(entryType.fieldByName("name"))).value());
        assertEquals(BALANCES.get(2) - BALANCES.get(1), ((IntegerValue) entry.getValue(entryType.fieldByName("amount"))).value());
        assertEquals(2, ((IntegerValue) ledger.getValue(ledger.fieldByName("posted"))).value(), "a static field, now");
        Method toString = entryType.methodsByName("toString", "()Ljava/lang/String;").get(0);
        String shown = ((StringReference) entry.invokeMethod(main, toString, List.of(), 0)).value();
        assertTrue(recorded.stdout().contains("round 2: " + shown + ", balance"), () -> "an invoked toString() is " + shown
                + ", the identity hash the recording printed");
        ObjectReference old = third;
        assertThrows(ObjectCollectedException.class, () -> old.getValue(entryType.fieldByName("name")),
                "an object of the replaced JVM is gone, not another object of the new one");

        d.step(main, StepRequest.STEP_OVER);
        Location over = d.next(StepEvent.class).location();
        assertEquals("main", over.method().name(), "step over stays in main");
        assertNotEquals(line, over.lineNumber(), "step over leaves the line");
        d.vm.eventRequestManager().deleteEventRequests(d.vm.eventRequestManager().stepRequests());

        // Back once more, from the second JVM to a third: the first hit.
        Run first = back(d, List.of());
        assertEquals(0, first.status(), first::toString);
        BreakpointEvent once = d.next(BreakpointEvent.class);
        assertSame(bp, once.request());
        assertEquals(BALANCES.get(1), local(once.thread().frame(0), "balance"), "the first hit's balance");
        assertThrows(ObjectCollectedException.class, () -> entry.getValue(entryType.fieldByName("name")),
                "an object of the second JVM is gone too");
        d.vm.resume();

        // The breakpoint stays: rounds 2 to 5 hit it again, each resumed by finish.
        assertSameRun(recorded, d.finish());
    }

    /** Back to before main's first print: the debugger sees a breakpoint event of no request of its own. */
    @Test
    void backToARecordedEvent() throws Exception {
        long event = firstPrint();

        Debugging d = debug();
        ReferenceType ledger = d.prepared(LEDGER);
        d.breakpoint(ledger, EACH_ROUND, EventRequest.SUSPEND_ALL);
        d.next(BreakpointEvent.class);
        d.vm.resume();
        ThreadReference main = d.next(BreakpointEvent.class).thread();
        assertEquals(BALANCES.get(2), local(main.frame(0), "balance"));

        Run back = back(d, List.of("--to", "1:" + event));
        assertEquals(0, back.status(), back::toString);
        assertTrue(back.stderr().contains("went back before event 1:" + event), back::toString);
        BreakpointEvent stop = d.next(BreakpointEvent.class);
        assertNull(stop.request(), "no request of the debugger's");
        assertSame(main, stop.thread());
        assertEquals("stopped", main.frame(0).location().method().name(), "Reprise's frames on top, as --stop-at shows");
        StackFrame program = null;
        for (StackFrame f : main.frames()) {
            if (f.location().declaringType().name().equals(LEDGER)) {
                program = f;
                break;
            }
        }
        assertEquals(Debugging.lineOf(LEDGER, EACH_ROUND), program.location().lineNumber(), "main stands at its first print");
        assertEquals(BALANCES.get(1), local(program, "balance"), "round 1's balance");

        Run previous = back(d, List.of());
        assertEquals(2, previous.status(), previous::toString);
        assertTrue(previous.stderr().startsWith("reprise: the debugger has not stopped at a breakpoint"), previous::toString);

        d.vm.resume();
        assertSameRun(recorded, d.finish());
    }

    /**
     * From the exit back to before main's first print, where {@code Ledger$Summary} is not loaded
     * yet: the debugger forgets the class, as JDI does an unloaded one, and when the replay loads
     * it the debugger is told, as of a class prepared, and a breakpoint it then sets is hit.
     */
    @Test
    void aClassAnEarlierMomentHasNotLoadedIsLoadedAgain() throws Exception {
        Debugging d = sessions.start(rec, "--stop-at", "exit");
        String summary = LEDGER + "$Summary";
        assertEquals(1, d.vm.classesByName(summary).size(), "loaded at the exit");
        Run back = back(d, List.of("--to", "1:" + firstPrint()));
        assertEquals(0, back.status(), back::toString);
        d.next(BreakpointEvent.class);
        assertEquals(List.of(), d.vm.classesByName(summary), "not loaded before main's first print");

        ClassPrepareRequest prepare = d.vm.eventRequestManager().createClassPrepareRequest();
        prepare.addClassFilter(summary);
        prepare.enable();
        d.vm.resume();
        ReferenceType type = d.next(ClassPrepareEvent.class).referenceType();
        BreakpointRequest bp = d.vm.eventRequestManager().createBreakpointRequest(
                type.locationsOfLine(Debugging.lineOf(LEDGER, "debugger: summary")).get(0));
        bp.enable();
        d.vm.resume();
        BreakpointEvent hit = d.next(BreakpointEvent.class);
        assertSame(bp, hit.request());
        StackFrame frame = hit.thread().frame(0);
        String text = ((StringReference) frame.getValue(frame.visibleVariableByName("text"))).value();
        assertTrue(recorded.stdout().contains("book " + text + "\n"), () -> "the summary is " + text);
        d.vm.resume();
        assertSameRun(recorded, d.finish());
    }

    /** Nothing to go back in, or a moment that is not one: a message and status 2; the session goes on. */
    @Test
    void badRequestsAreUsageErrors() throws Exception {
        int free = Debugging.freePort();
        Run none = Reprise.reprise(List.of("back", "--port", Integer.toString(free)), null, Map.of(), null);
        assertEquals(2, none.status(), none::toString);
        assertTrue(none.stderr().startsWith("reprise: no replay under a debugger on port " + free), none::toString);

        Debugging d = debug();
        ReferenceType ledger = d.prepared(LEDGER);
        d.breakpoint(ledger, EACH_ROUND, EventRequest.SUSPEND_ALL);
        ThreadReference main = d.next(BreakpointEvent.class).thread();
        for (String[] bad : new String[][] {{"", "there is no previous one"}, {"1:99999999", "thread 1 recorded events 0 to"},
                {"9:1", "the recording has no thread 9"}, {"exit", "--to wants THREAD:EVENT"}}) {
            Run r = back(d, bad[0].isEmpty() ? List.of() : List.of("--to", bad[0]));
            assertEquals(2, r.status(), r::toString);
            assertTrue(r.stderr().startsWith("reprise: "), r::toString);
            assertTrue(r.stderr().contains(bad[1]), r::toString);
            assertEquals(1, r.stderr().lines().count(), r::toString);
        }
        assertEquals(BALANCES.get(1), local(main.frame(0), "balance"), "the debugger still holds the first hit");
        d.vm.resume();
        assertSameRun(recorded, d.finish());
    }

    /** The number of main's event that prints round 1. */
    private static long firstPrint() {
        Run events = Reprise.reprise(List.of("inspect", rec.toString(), "--events", "1"), null, Map.of(), null);
        String print = events.stdout().lines().filter(l -> l.contains("file.out.write")).findFirst().orElseThrow();
        return Long.parseLong(print.trim().split("\\s+")[0]);
    }

    private static Run back(Debugging d, List<String> options) {
        List<String> args = new ArrayList<>(List.of("back", "--port", Integer.toString(d.port)));
        args.addAll(options);
        return Reprise.reprise(args, null, Map.of(), null);
    }

    private static int local(StackFrame frame, String name) throws Exception {
        return ((IntegerValue) frame.getValue(frame.visibleVariableByName(name))).value();
    }

    private static void assertSameRun(Run expected, Run replayed) {
        assertEquals(expected.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(expected.programStderr(), replayed.programStderr(), replayed::toString);
        assertEquals(expected.status(), replayed.status(), replayed::toString);
    }
}

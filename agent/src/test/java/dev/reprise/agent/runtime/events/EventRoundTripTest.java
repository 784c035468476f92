package dev.reprise.agent.runtime.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.reprise.core.log.LogWriter;
import dev.reprise.core.recording.RecordingReader;
import dev.reprise.core.recording.RecordingWriter;

/**
 * The event model in one JVM, in seconds: events a {@link RecordEv} writes through the real sink
 * (stream files, compressed chunks) come back from a {@link ReplayEv} over the real source with
 * the values, exceptions and relaxed counts the recording saw. The end-to-end tests check the
 * same through whole programs; this tier pins the model itself.
 */
class EventRoundTripTest {
    private static final Op VALUES = Op.named("test.values");
    private static final Op FAILS = Op.named("test.fails");
    private static final Op USUAL = Op.withRelaxedTwin("test.usual");

    @TempDir
    Path dir;

    /** Records on a context of stream {@code 1} what {@code events} does, and closes the sink. */
    private void record(boolean logRelaxed, java.util.function.Consumer<ThreadCtx> events) throws IOException {
        LogWriter sink = new LogWriter(RecordingWriter.of(dir), e -> {
            throw new AssertionError(e);
        });
        sink.start();
        ThreadCtx ctx = new ThreadCtx("1", 0, null, false);
        ctx.ev = new RecordEv(ctx, sink.open("1"), logRelaxed);
        events.accept(ctx);
        sink.close();
    }

    private static ThreadCtx replaying(Path dir) {
        ThreadCtx ctx = new ThreadCtx("1", 0, null, false);
        ctx.ev = new ReplayEv(ctx, RecordingReader.of(dir).open("1"), null);
        return ctx;
    }

    @Test
    void valuesComeBackAsRecorded() throws IOException {
        byte[] filled = {1, 2, 3, 4};
        record(false, ctx -> {
            Ev ev = Ev.begin(ctx, VALUES, 7, 99);
            assertTrue(ev.live());
            assertEquals(-5L, ev.j(-5L));
            assertEquals("héllo", ev.s("héllo"));
            assertNull(ev.s(null));
            assertTrue(ev.z(true));
            ev.fill(filled, 0, 4);
            assertArrayEquals(new byte[] {9, 8}, ev.blob(new byte[] {9, 8}));
            ev.end();
        });
        ThreadCtx ctx = replaying(dir);
        Ev ev = Ev.begin(ctx, VALUES, 7, 99);
        assertFalse(ev.live());
        assertEquals(-5L, ev.j(0));
        assertEquals("héllo", ev.s(null));
        assertNull(ev.s("ignored"));
        assertTrue(ev.z(false));
        byte[] into = new byte[4];
        ev.fill(into, 0, 4);
        assertArrayEquals(filled, into);
        assertArrayEquals(new byte[] {9, 8}, ev.blob(null));
        ev.end();
        assertEquals(1, ctx.eventNo);
        assertTrue(((ReplayEv) ctx.ev).in.atEnd(), "nothing left over");
    }

    @Test
    void aThrownExceptionIsThrownAgainAtTheEventsBeginning() throws IOException {
        record(false, ctx -> {
            Ev ev = Ev.begin(ctx, FAILS, 0, 0);
            try {
                throw ev.threw(new IOException("disk full"));
            } catch (Throwable t) {
                assertEquals("disk full", t.getMessage());
            } finally {
                ev.end();
            }
        });
        ThreadCtx ctx = replaying(dir);
        ctx.depth = 1; // claimed, as a hook's call is
        IOException replayed = assertThrows(IOException.class, () -> Ev.begin(ctx, FAILS, 0, 0));
        assertEquals("disk full", replayed.getMessage());
        assertEquals(0, ctx.depth, "the claim is released");
    }

    @Test
    void usualOutcomesAreCountedAndTheRunIsWrittenBeforeTheNextEvent() throws IOException {
        record(false, ctx -> {
            for (int i = 0; i < 5; i++) {
                Ev ev = Ev.begin(ctx, USUAL, 3, 0);
                assertTrue(ev.counted(true));
                ev.end();
            }
            Ev ev = Ev.begin(ctx, USUAL, 3, 0);
            assertFalse(ev.counted(false));
            ev.i(42);
            ev.end();
            assertEquals(2, ctx.eventNo, "one run of five, then the unusual event");
        });
        ThreadCtx ctx = replaying(dir);
        for (int i = 0; i < 5; i++) {
            Ev ev = Ev.begin(ctx, USUAL, 3, 0);
            assertTrue(ev.counted(false), "relaxed event " + i);
            ev.end();
        }
        Ev ev = Ev.begin(ctx, USUAL, 3, 0);
        assertFalse(ev.counted(true));
        assertEquals(42, ev.i(0));
        ev.end();
        assertTrue(((ReplayEv) ctx.ev).readRuns());
        assertTrue(((ReplayEv) ctx.ev).in.atEnd());
    }

    @Test
    void underLogRelaxedEachUsualOutcomeIsWrittenWhole() throws IOException {
        record(true, ctx -> {
            for (int i = 0; i < 3; i++) {
                Ev ev = Ev.begin(ctx, USUAL, 10 + i, 0);
                ev.counted(true);
                ev.end();
            }
            assertEquals(3, ctx.eventNo, "no run: three events with their sites");
        });
        ThreadCtx ctx = replaying(dir);
        for (int i = 0; i < 3; i++) {
            Ev ev = Ev.begin(ctx, USUAL, 10 + i, 0);
            assertTrue(ev.counted(false));
            ev.end();
        }
        assertFalse(((ReplayEv) ctx.ev).readRuns());
    }
}

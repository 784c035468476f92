package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sockets are not recorded: a recording warns once and runs on; its replay stops (status 3) with a
 * report at the first attempt, before anything reaches the outside. Replays run without a network
 * ({@code unshare -n}): they need none.
 */
class OutsideWorldTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({
        "tcp, java.net.ServerSocket.<init> from corpus.outside.Sockets.tcp",
        "nio, java.nio.channels.ServerSocketChannel.open from corpus.outside.Sockets.main",
        "udp, java.net.DatagramSocket.<init> from corpus.outside.Sockets.udp",
        "unix, java.nio.channels.ServerSocketChannel.open from corpus.outside.Sockets.main",
    })
    void aSocketIsWarnedOfWhenRecordedAndStopsTheReplay(String api, String called) throws Exception {
        Path socketFile = tmp.resolve("socket");
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.outside.Sockets", api, socketFile.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("before the network\nreceived hello\n", recorded.stdout(), recorded::toString);
        String warning = "reprise: warning: the program opened a socket (" + called;
        assertEquals(1, recorded.stderr().split(java.util.regex.Pattern.quote(warning), -1).length - 1,
                () -> "one warning for all the sockets of a run\n" + recorded);
        assertTrue(recorded.stderr().contains("network traffic is not recorded: a replay of this recording will stop there"),
                recorded::toString);
        Files.deleteIfExists(socketFile);

        Run replay = replayWithoutNetwork(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("before the network\n", replay.stdout(), replay::toString);
        assertTrue(replay.stderr().startsWith("reprise: replay diverged on thread 1 at event "), replay::toString);
        assertTrue(replay.stderr().contains("the program opened a socket, which a replay never does"), replay::toString);
        assertTrue(replay.stderr().contains("actual:   " + called), replay::toString);
        assertFalse(Files.exists(socketFile), "the replay bound no Unix domain socket");
    }

    /** {@code reprise replay DIR} in a network namespace of its own, which has no network. */
    private static Run replayWithoutNetwork(Path rec) {
        List<String> cmd = new ArrayList<>(List.of("unshare", "-n"));
        cmd.addAll(Reprise.repriseCommand(List.of("replay", rec.toString())));
        return Reprise.exec(cmd, null, Map.of(), null);
    }
}

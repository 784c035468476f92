package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Sockets are recorded, and replayed with no network: every replay here runs in a network
 * namespace of its own, which has none ({@code unshare -n}), and must print what the recording
 * printed, byte for byte, under chaos seeds 1 to {@link #REPLAYS}.
 */
class NetworkTest {
    private static final int REPLAYS = 3;

    @TempDir
    Path tmp;

    /** A program that talks to itself through one socket API: the replay binds, connects and sends nothing. */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "nio", "udp", "async", "unix"})
    void socketsReplayWithoutANetwork(String api) throws IOException {
        Path socketFile = tmp.resolve("socket");
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.outside.Sockets", api, socketFile.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("before the network\nreceived hello\n", recorded.stdout(), recorded::toString);
        // The program wrote nothing on stderr (programStderr's "\n"); Reprise's own advice (a race
        // its first recording learned in the JDK's server) may stand there, and is not the program's.
        assertEquals("\n", recorded.programStderr(), recorded::toString);
        Files.deleteIfExists(socketFile);

        assertReplaysWithoutNetwork(rec, recorded);
        assertFalse(Files.exists(socketFile), "the replay bound no Unix domain socket");
    }

    /**
     * Multicast on the loopback interface: two receivers of one group, five datagrams sent with
     * {@code lo} as the outgoing interface, and a receive timeout that expires. The replay runs
     * where {@code lo} is down, has no address and no IPv6: it finds the interface and the
     * resolver the recording found, and joins, sends and receives nothing.
     */
    @ParameterizedTest(name = "multicast under {0}")
    @ValueSource(strings = {"rto", "to"})
    void multicastOnTheLoopbackReplaysWithoutANetwork(String order) {
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, order, corpus("corpus.net.Multicast"));
        assertEquals(0, recorded.status(), recorded::toString);
        StringBuilder received = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            received.append(" [datagram ").append(i).append(" from loopback true]");
        }
        received.append(" [timed out after 300 ms]\n");
        assertEquals("sending on lo, ttl 0, loop true\nreceiver 1:" + received + "receiver 2:" + received,
                recorded.stdout(), recorded::toString);
        assertEquals("\n", recorded.programStderr(), recorded::toString);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * Virtual threads blocked on sockets (JDK 21 and later): three serve one server socket and
     * four connect, three by {@code Socket} and one by {@code SocketChannel}. A virtual thread
     * that would block parks until the JDK's poller, which is not recorded, finds its socket
     * ready; a replay's stand-in is ready at once, and the poller's wake-up must not be lost to a
     * pause of Reprise's own (a chaos pause, a wait for a turn) taken before the thread parks.
     */
    @ParameterizedTest(name = "virtual threads on sockets under {0}")
    @ValueSource(strings = {"rto", "to"})
    void virtualThreadsBlockedOnSocketsReplayWithoutANetwork(String order) {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, order, corpus("corpus.net.VirtualSockets"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().matches("(client (\\d): virtual true( \\[line \\d of client \\2 echoed by server \\d]){3}\\n){4}"
                + "connections per server:( \\d){3}\\n"), recorded::toString);
        assertEquals("\n", recorded.programStderr(), recorded::toString);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * A client of a web service in another process (this test's JVM): its replay, after the
     * service is gone, gets the same answers, the same refused connection and the same expired
     * read timeout.
     */
    @Test
    void aClientReplaysAfterItsServerIsGone() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        server.createContext("/square", NetworkTest::square);
        server.start();
        Path rec = tmp.resolve("rec");
        Run recorded;
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/square?n=";
            recorded = Reprise.record(rec, corpus("corpus.net.Fetch", base, "6"));
        } finally {
            server.stop(0);
        }
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("200 0 (0 bytes in)\n200 1 (9 bytes in)\n200 4 (0 bytes in)\n200 9 (9 bytes in)\n"
                + "200 16 (0 bytes in)\n200 25 (9 bytes in)\nrefused: Connection refused\ntimed out: Read timed out\n",
                recorded.stdout(), recorded::toString);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * A web service and its clients in one program, the JDK's {@code HttpServer} on a pool and
     * sixteen requests at once, by {@code HttpURLConnection} on as many threads or by
     * {@code HttpClient}'s asynchronous requests: the threads of both sides reach each other
     * through the kernel and through the libraries' own locks, and replay as they ran.
     */
    @ParameterizedTest
    @ValueSource(strings = {"urlconnection", "httpclient"})
    void aServerAndItsClientsInOneProgramReplay(String client) {
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.net.InProcess", client, "16"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains(" 16 answers, squares sum 1240\n"), recorded::toString);
        // The program wrote nothing on stderr (programStderr's "\n"); Reprise's own advice (a race
        // its first recording learned in the JDK's server) may stand there, and is not the program's.
        assertEquals("\n", recorded.programStderr(), recorded::toString);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * HTTPS with a self-signed certificate made for the test: the handshakes draw random numbers
     * and read clocks, and the TLS records cross the sockets encrypted. The replay, with no
     * network and the key store deleted, prints what the recording printed.
     */
    @Test
    void tlsClientsAndServerReplayWithoutANetwork() throws Exception {
        Path store = tmp.resolve("server.p12");
        Run keytool = Reprise.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
                "-alias", "server", "-keyalg", "EC", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1",
                "-validity", "2"), null, Map.of(), null);
        assertEquals(0, keytool.status(), keytool::toString);
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.net.Tls", store.toString(), "changeit", "8"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("sync: 200 49 (0 bytes in) over TLSv1.3\n"), recorded::toString);
        assertTrue(recorded.stdout().contains("async: 8 answers, squares sum 140\n"), recorded::toString);
        assertTrue(recorded.stdout().endsWith("served, squares sum 333\n"), recorded::toString);
        // The program wrote nothing on stderr (programStderr's "\n"); Reprise's own advice (a race
        // its first recording learned in the JDK's server) may stand there, and is not the program's.
        assertEquals("\n", recorded.programStderr(), recorded::toString);
        Files.delete(store);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * A web service recorded while clients in another process (this test's JVM) send it forty
     * requests at once, replayed with no client and no network: on the JDK's server, and on
     * embedded Jetty from Maven Central. A recording that found races it does not order (Jetty's
     * job queue races on its array by design) says so, and the next one orders them: the test
     * records again, as that advice tells a user to. Which races a run meets depends on its
     * timing, so a second recording may still meet one the first did not; a third must not.
     */
    @ParameterizedTest
    @ValueSource(strings = {"corpus.net.Serve", "corpus.net.JettyServe"})
    void aServerReplaysWithoutItsClients(String server) throws Exception {
        Path rec = tmp.resolve("rec");
        Run recorded = recordServingForty(server, rec);
        for (int again = 0; again < 2 && recorded.stderr().contains("which this recording does not order"); again++) {
            Reprise.deleteTree(rec);
            recorded = recordServingForty(server, rec);
        }
        assertFalse(recorded.stderr().contains("which this recording does not order"), recorded::toString);
        assertReplaysWithoutNetwork(rec, recorded);
    }

    /** Records {@code server} into {@code rec} while forty clients ask it at once, and checks their answers. */
    private static Run recordServingForty(String server, Path rec) throws Exception {
        LiveRecording live = LiveRecording.start(List.of(), rec, corpus(server, "40"));
        int port = Integer.parseInt(live.awaitLineStarting("port "));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/square?n=" + i));
            answers.add(client.sendAsync(i % 2 == 0 ? request.build() : request.POST(BodyPublishers.ofString("payload " + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 40; i++) {
            assertEquals((long) i * i + " (" + (i % 2 == 0 ? 0 : ("payload " + i).length()) + " bytes in)",
                    answers.get(i).get(60, TimeUnit.SECONDS).body());
        }
        Run recorded = live.finish();
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().endsWith("served 40, squares sum 20540\n"), recorded::toString);
        return recorded;
    }

    /**
     * Host names resolve from the recording: the lookups are events, and the replay makes none.
     * The JDK's cache of lookups works in the replay as it did: {@code getLocalHost}'s own lookup
     * of the machine's name leaves it there, and the program's lookup of that name finds it. A
     * probe of the loopback address ({@code isReachable}) gives the recorded answer.
     */
    @Test
    void hostNamesResolveFromTheRecording() {
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.net.Lookups"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("localhost: true\nagain, loopback: true\nreverse of 127.0.0.1: localhost\n"),
                recorded::toString);
        assertTrue(recorded.stdout().matches(
                "(?s).*\\n(local host among its name's addresses: true|local host unresolved)\\nloopback reachable: true\\n"),
                recorded::toString);
        Run inspected = Reprise.reprise(List.of("inspect", rec.toString()), null, Map.of(), null);
        assertTrue(inspected.stdout().matches("(?s).*\\nnet\\.lookup +[12]\\n.*"),
                () -> "localhost once, the machine's name at most once (the second asks are the JDK's cached answers)\n"
                        + inspected);
        assertTrue(inspected.stdout().matches("(?s).*\\nnet\\.lookup\\.reverse +1\\n.*"), inspected::toString);
        assertTrue(inspected.stdout().matches("(?s).*\\nnet\\.reachable +1\\n.*"),
                () -> "the probe of the loopback address is recorded, and a replay without a network gives its answer\n"
                        + inspected);

        assertReplaysWithoutNetwork(rec, recorded);
    }

    /**
     * A replay never reaches the outside: a program rebuilt to connect where the recorded one
     * did not stops at that connection with a report (status 3), having printed only what the
     * recording printed before it.
     */
    @Test
    void aConnectionTheRecordingLacksStopsTheReplay() throws Exception {
        Path jar = tmp.resolve("app.jar");
        Programs.buildMain(jar, "System.out.println(\"before\");");
        Path rec = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "-o", rec.toString(), "--"));
        args.addAll(Programs.command(jar));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);

        Programs.buildMain(jar, "System.out.println(\"before\");\n"
                + "try (java.net.Socket s = new java.net.Socket(\"127.0.0.1\", 9)) { System.out.println(\"connected\"); }\n"
                + "catch (java.io.IOException e) { System.out.println(\"failed: \" + e); }");
        Run replay = Reprise.exec(withoutNetwork(List.of("replay", rec.toString())), null, Map.of(), null);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("before\n", replay.stdout(), replay::toString);
        assertTrue(replay.stderr().startsWith("reprise: replay diverged on thread 1 at event "), replay::toString);
        assertTrue(replay.stderr().contains("at java.base/java.net.Socket.<init>"),
                () -> "stops in the socket's making\n" + replay);
    }

    /** JDK 17's legacy socket implementation is not recorded: recording warns, and the replay stops there. */
    @Test
    void aLegacySocketIsWarnedOfAndStopsTheReplay() {
        Assumptions.assumeTrue(Runtime.version().feature() < 18, "the legacy implementation is gone after JDK 17");
        Path rec = tmp.resolve("rec");
        List<String> cmd = new ArrayList<>(corpus("corpus.outside.Sockets", "tcp", tmp.resolve("unused").toString()));
        cmd.add(1, "-Djdk.net.usePlainSocketImpl=true");
        Run recorded = Reprise.record(rec, cmd);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("before the network\nreceived hello\n", recorded.stdout(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: warning: the program opened a socket of the legacy implementation"
                + " (-Djdk.net.usePlainSocketImpl) (java.net.ServerSocket."), recorded::toString);

        Run replay = Reprise.exec(withoutNetwork(List.of("replay", rec.toString())), null, Map.of(), null);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("before the network\n", replay.stdout(), replay::toString);
        assertTrue(replay.stderr().contains("which a replay never does: its traffic is not recorded"), replay::toString);
    }

    private static void square(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long n = Long.parseLong(query.substring(query.indexOf('=') + 1));
        int in = exchange.getRequestBody().readAllBytes().length;
        byte[] reply = (n * n + " (" + in + " bytes in)").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, reply.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
        }
    }

    private void assertReplaysWithoutNetwork(Path rec, Run recorded) {
        for (int seed = 1; seed <= Reprise.chaosReplays(REPLAYS); seed++) {
            Run replayed = Reprise.exec(withoutNetwork(List.of("replay", rec.toString(), "--chaos", Integer.toString(seed))),
                    null, Map.of(), null);
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.programStderr(), replayed.programStderr(), () -> "stderr differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, chaos seed " + s + "\n" + replayed);
        }
    }

    /** {@code reprise ARGS} in a network namespace of its own, which has no network. */
    private static List<String> withoutNetwork(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("unshare", "-n"));
        cmd.addAll(Reprise.repriseCommand(args));
        return cmd;
    }
}

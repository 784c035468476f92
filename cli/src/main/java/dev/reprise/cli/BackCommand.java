package dev.reprise.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import dev.reprise.cli.debug.BackRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code reprise back}: from another terminal, takes the replay a debugger holds suspended (under
 * {@code reprise replay --debug}) back to an earlier moment, under the same debugger connection.
 * It asks the replay's proxy on the debugger's own port.
 */
@Command(name = "back", mixinStandardHelpOptions = true,
        description = {"Take a replay under a debugger back to an earlier moment, the debugger staying connected.",
            "Run it from another terminal while the debugger holds the replay (reprise replay --debug) suspended:",
            "the debugger stops again at the previous hit of its breakpoint, or with --to before a recorded event.",
            "Exits with 0 once the debugger stands there, 2 if there is nothing to go back in or the moment is not one,",
            "3 if the new replay could not reach it."})
final class BackCommand implements Callable<Integer> {
    private static final int DEFAULT_PORT = 5005;
    private static final int CONNECT_MILLIS = 5_000;
    /** How long a proxy takes to acknowledge; going back itself takes as long as the replay up to the moment. */
    private static final int ACKNOWLEDGE_MILLIS = 10_000;

    @Option(names = "--port", paramLabel = "PORT", description = "The debugger port of the replay (default 5005).")
    int port = DEFAULT_PORT;

    @Option(names = "--to", paramLabel = "THREAD:EVENT",
            description = "Go back to before this event of this thread (numbered as 'reprise inspect --events' numbers them).")
    String to;

    @Override
    public Integer call() {
        if (port < 1 || port > 65535) {
            Main.say("--port wants a port from 1 to 65535, not " + port);
            return ExitCodes.USAGE;
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_MILLIS);
            s.getOutputStream().write(new BackRequest(to).line().getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            s.setSoTimeout(ACKNOWLEDGE_MILLIS);
            if (!BackRequest.WORKING.equals(BackRequest.readLine(in))) {
                return notAProxy();
            }
            s.setSoTimeout(0); // the proxy answers once the new replay is there, or has failed
            String answer = BackRequest.readLine(in);
            if (answer == null) {
                Main.say("the replay on port " + port + " ended while going back");
                return ExitCodes.DIVERGED;
            }
            if (answer.startsWith("ok ")) {
                Main.say(answer.substring(3));
                return 0;
            }
            String[] error = answer.split(" ", 3);
            if (error.length == 3 && error[0].equals("error")) {
                Main.say(error[2]);
                return error[1].equals("3") ? ExitCodes.DIVERGED : ExitCodes.USAGE;
            }
            return notAProxy();
        } catch (ConnectException e) {
            Main.say("no replay under a debugger on port " + port + " (start one with reprise replay DIR --debug="
                    + port + ")");
            return ExitCodes.USAGE;
        } catch (SocketTimeoutException e) {
            return notAProxy();
        } catch (IOException e) {
            Main.say("cannot reach port " + port + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }

    private int notAProxy() {
        Main.say("port " + port + " is not the debugger port of a reprise replay --debug");
        return ExitCodes.USAGE;
    }
}

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;

/**
 * How long {@code reprise back} takes, as a user at a terminal sees it, timed from the command's
 * start until it exits; the JDI client attached must then receive the stop. Each run starts a
 * fresh replay.
 * <ul>
 * <li>{@code java scripts/GoingBackTiming.java REPRISE RECORDING THREAD FROM RUNS TO...}: the replay
 *     is started with {@code --stop-at THREAD:FROM}, and {@code reprise back --to THREAD:TO} is
 *     timed for each TO, the runs going round the targets in turn.
 * <li>{@code java scripts/GoingBackTiming.java REPRISE RECORDING previous CLASS LINE HIT RUNS}: a
 *     breakpoint on that line is hit HIT times, and {@code reprise back} to its previous hit is
 *     timed.
 * </ul>
 */
public final class GoingBackTiming {
    public static void main(String[] args) throws Exception {
        String reprise = args[0];
        String recording = args[1];
        if (args[2].equals("previous")) {
            previous(reprise, recording, args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
            return;
        }
        String thread = args[2];
        long from = Long.parseLong(args[3]);
        int runs = Integer.parseInt(args[4]);
        List<Long> targets = new ArrayList<>();
        for (int i = 5; i < args.length; i++) {
            targets.add(Long.parseLong(args[i]));
        }
        Map<Long, List<Double>> seconds = new java.util.TreeMap<>();
        for (int run = 0; run < runs; run++) {
            for (long to : targets) {
                int port = freePort();
                Process replay = new ProcessBuilder(reprise, "replay", recording, "--debug=" + port, "--stop-at",
                        thread + ":" + from).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                try {
                    VirtualMachine vm = attach(port, replay);
                    long start = System.nanoTime();
                    Process back = new ProcessBuilder(reprise, "back", "--port", Integer.toString(port), "--to",
                            thread + ":" + to).inheritIO().start();
                    if (back.waitFor() != 0) {
                        throw new IllegalStateException("reprise back exited with " + back.exitValue());
                    }
                    double s = (System.nanoTime() - start) / 1e9;
                    EventSet set = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(60));
                    boolean stopped = false;
                    for (Event e : set) {
                        stopped |= e instanceof BreakpointEvent;
                    }
                    if (!stopped) {
                        throw new IllegalStateException("the debugger got " + set);
                    }
                    seconds.computeIfAbsent(to, t -> new ArrayList<>()).add(s);
                    System.out.printf("to %d: %.2f s%n", to, s);
                    vm.dispose();
                } finally {
                    replay.descendants().forEach(ProcessHandle::destroyForcibly);
                    replay.destroyForcibly();
                    replay.waitFor();
                }
            }
        }
        for (Map.Entry<Long, List<Double>> e : seconds.entrySet()) {
            List<Double> s = new ArrayList<>(e.getValue());
            s.sort(null);
            System.out.printf("to %s:%d  median %.2f s of %d  %s%n", thread, e.getKey(), s.get(s.size() / 2), s.size(), s);
        }
    }

    private static void previous(String reprise, String recording, String className, int line, int hit, int runs)
            throws Exception {
        List<Double> seconds = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            int port = freePort();
            Process replay = new ProcessBuilder(reprise, "replay", recording, "--debug=" + port)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                VirtualMachine vm = attach(port, replay);
                ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
                prepare.addClassFilter(className);
                prepare.enable();
                long first = System.nanoTime();
                vm.resume(); // from the JVM's start
                BreakpointRequest bp = null;
                for (int hits = 0; hits < hit; ) {
                    EventSet set = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(120));
                    for (Event e : set) {
                        if (e instanceof ClassPrepareEvent p) {
                            bp = vm.eventRequestManager().createBreakpointRequest(p.referenceType().locationsOfLine(line).get(0));
                            bp.enable();
                        } else if (e instanceof BreakpointEvent) {
                            hits++;
                        }
                    }
                    if (hits < hit) {
                        set.resume();
                    }
                }
                System.out.printf("hit %d after %.2f s%n", hit, (System.nanoTime() - first) / 1e9);
                long start = System.nanoTime();
                Process back = new ProcessBuilder(reprise, "back", "--port", Integer.toString(port)).inheritIO().start();
                if (back.waitFor() != 0) {
                    throw new IllegalStateException("reprise back exited with " + back.exitValue());
                }
                double s = (System.nanoTime() - start) / 1e9;
                EventSet set = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(60));
                if (!(set.iterator().next() instanceof BreakpointEvent b) || b.request() != bp) {
                    throw new IllegalStateException("the debugger got " + set);
                }
                seconds.add(s);
                System.out.printf("back to hit %d: %.2f s%n", hit - 1, s);
                vm.dispose();
            } finally {
                replay.descendants().forEach(ProcessHandle::destroyForcibly);
                replay.destroyForcibly();
                replay.waitFor();
            }
        }
        seconds.sort(null);
        System.out.printf("back to hit %d  median %.2f s of %d  %s%n", hit - 1, seconds.get(seconds.size() / 2), seconds.size(),
                seconds);
    }

    private static VirtualMachine attach(int port, Process replay) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.transport().name().equals("dt_socket")).findFirst().orElseThrow();
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue("127.0.0.1");
        args.get("port").setValue(Integer.toString(port));
        while (true) {
            try {
                return socket.attach(args);
            } catch (IOException e) {
                if (!replay.isAlive()) {
                    throw new IllegalStateException("the replay ended before a debugger could attach");
                }
                Thread.sleep(100);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

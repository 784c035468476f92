package conformance;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;

/**
 * Apache Pekko actors: a counter actor receives messages from several worker actors that each
 * forward a range of numbers; the driver then asks the counter for its total.
 */
public final class PekkoDriver {
    static final class Counter extends AbstractActor {
        private long total;
        private int messages;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Long.class, v -> {
                        total += v;
                        messages++;
                    })
                    .matchEquals("total", m -> getSender().tell(messages + " messages, total " + total, getSelf()))
                    .build();
        }
    }

    static final class Worker extends AbstractActor {
        private final ActorRef counter;

        Worker(ActorRef counter) {
            this.counter = counter;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(int[].class, r -> {
                        for (int i = r[0]; i < r[1]; i++) {
                            counter.tell((long) i * i % 1013, getSelf());
                        }
                        getSender().tell("done " + r[0], getSelf());
                    })
                    .build();
        }
    }

    public static void main(String[] args) throws Exception {
        int workers = Integer.parseInt(args[0]);
        int per = Integer.parseInt(args[1]);
        ActorSystem system = ActorSystem.create("conformance");
        ActorRef counter = system.actorOf(Props.create(Counter.class, Counter::new), "counter");
        CompletionStage<?>[] done = new CompletionStage<?>[workers];
        for (int w = 0; w < workers; w++) {
            ActorRef worker = system.actorOf(Props.create(Worker.class, () -> new Worker(counter)), "worker-" + w);
            done[w] = Patterns.ask(worker, new int[] {w * per, (w + 1) * per}, Duration.ofMinutes(2));
        }
        for (CompletionStage<?> d : done) {
            System.out.println(d.toCompletableFuture().get());
        }
        System.out.println(Patterns.ask(counter, "total", Duration.ofMinutes(2)).toCompletableFuture().get());
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get();
        System.out.println("terminated");
    }
}

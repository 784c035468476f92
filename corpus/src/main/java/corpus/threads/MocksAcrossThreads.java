package corpus.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.mockito.Mockito;

/**
 * Mocks called from a pool's threads, as a test that mocks a repository for a concurrent service
 * does. Mocking a class makes Mockito's inline mock maker weave into {@code Object.equals} a
 * lookup of the receiver in its map of mocks, which Reprise's own lookups may call as it
 * instruments a class (JDK 25's set of one element compares with its empty marker by
 * {@code equals}): the pool's threads load classes as they go, whichever comes first. Expected,
 * recorded with one field ordered ({@link Tally}): replays print the recording's counts.
 */
public final class MocksAcrossThreads {
    private MocksAcrossThreads() {
    }

    /** What main adds the threads' counts into: a class no mock touches, whose field a test orders. */
    static final class Tally {
        int total;
    }

    /** What the service reads and writes through. */
    public interface Repository {
        String find(int id);

        void save(String s);
    }

    /** The code under test. */
    public static class Service {
        private final Repository repository;

        public Service(Repository repository) {
            this.repository = repository;
        }

        public String load(int id) {
            String s = repository.find(id);
            repository.save(s + "!");
            return s;
        }

        public int twice(int x) {
            return 2 * x;
        }
    }

    public static void main(String[] args) throws Exception {
        Repository repository = Mockito.mock(Repository.class);
        Mockito.when(repository.find(Mockito.anyInt())).thenAnswer(call -> "item" + call.getArgument(0));
        Service service = new Service(repository);
        Service spy = Mockito.spy(new Service(repository));
        Mockito.when(spy.twice(21)).thenReturn(0);
        Service mocked = Mockito.mock(Service.class);
        Mockito.when(mocked.load(7)).thenReturn("mocked7");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Integer>> found = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int base = t * 100;
            found.add(pool.submit(() -> {
                int n = 0;
                for (int i = 0; i < 50; i++) {
                    if (service.load(base + i).equals("item" + (base + i))) {
                        n++;
                    }
                }
                return n;
            }));
        }
        Tally tally = new Tally();
        for (Future<Integer> f : found) {
            tally.total += f.get();
        }
        System.out.println("found " + tally.total);
        pool.shutdown();
        Mockito.verify(repository, Mockito.times(100)).find(Mockito.anyInt());
        Mockito.verify(repository).save("item105!");
        System.out.println("spy twice(21)=" + spy.twice(21) + " twice(5)=" + spy.twice(5));
        System.out.println("mock load(7)=" + mocked.load(7) + " load(8)=" + mocked.load(8));
    }
}

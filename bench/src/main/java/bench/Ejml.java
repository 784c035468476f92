package bench;

import java.nio.ByteBuffer;

import org.ejml.concurrency.EjmlConcurrency;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_MT_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_MT_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * ejml: dense linear algebra with EJML's concurrent operations, which split each product and
 * each Cholesky block update over a fork/join pool of N worker threads: floating-point compute
 * shared out by a library's own scheduler, the kind of work DaCapo's sunflow renderer does. Every
 * element of a result is computed whole by one worker, so the digest does not depend on which
 * worker took which rows.
 */
public final class Ejml {
    private Ejml() {
    }

    public static void main(String[] args) {
        Timed.begin();
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        EjmlConcurrency.setMaxThreads(Integer.parseInt(args[2]));
        ResultDigest digest = new ResultDigest();
        for (int r = 0; r < rounds; r++) {
            DMatrixRMaj a = matrix(n, r);
            DMatrixRMaj b = matrix(n, r + rounds);
            DMatrixRMaj product = CommonOps_MT_DDRM.mult(a, b, null);
            // A^T A + nI is symmetric positive definite, so Cholesky applies.
            DMatrixRMaj spd = CommonOps_MT_DDRM.multTransA(a, a, null);
            for (int i = 0; i < n; i++) {
                spd.add(i, i, n);
            }
            LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_MT_DDRM.chol(n);
            if (!solver.setA(spd)) {
                throw new IllegalStateException("not positive definite in round " + r);
            }
            DMatrixRMaj x = new DMatrixRMaj(n, n);
            solver.solve(product, x);
            digest.add(bytes(product)).add(bytes(x));
        }
        digest.print("ejml");
        Timed.end();
    }

    /** Entries in [-1, 1] from a fixed pattern that {@code seed} shifts. */
    private static DMatrixRMaj matrix(int n, int seed) {
        DMatrixRMaj m = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m.set(i, j, ((i * 31L + j * 17L + seed * 7L + (long) i * j) % 101 - 50) / 50.0);
            }
        }
        return m;
    }

    private static byte[] bytes(DMatrixRMaj m) {
        ByteBuffer b = ByteBuffer.allocate(m.getNumElements() * Double.BYTES);
        for (int i = 0; i < m.getNumElements(); i++) {
            b.putDouble(m.data[i]);
        }
        return b.array();
    }
}

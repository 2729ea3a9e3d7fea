package io.kgrag.core.qa.normalize;

/**
 * The inner product of two float vectors as eight running sums: sum j takes the elements at j, j + 8, j + 16, …
 * (each product rounded, then added, as Java does), the elements past the last whole eight go to sum 0, and the
 * sums are added as ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)). That order is the definition: the SIMD
 * form ({@link VectorEightLaneDot}, one 256-bit vector whose lane j is sum j) gives bit-identical results, so the
 * label index built with it is the one the plain loop builds, on any machine.
 *
 * <p>The SIMD form needs the JDK's incubating Vector API ({@code --add-modules=jdk.incubator.vector}, which
 * {@code bin/kgrag} passes to the driver and the executors); without it the plain loop runs.
 */
final class EightLaneDot {
  /**
   * Whether the SIMD form is used: the Vector API module is in this JVM's boot layer and the CPU has 256-bit
   * vectors (where it has not, the API emulates them far slower than the plain loop).
   */
  static final boolean SIMD = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && VectorEightLaneDot.native256();

  private EightLaneDot() {}

  /** u · v in the order of the class comment; u and v have the same length. */
  static float dot(float[] u, float[] v) {
    return SIMD ? VectorEightLaneDot.dot(u, v) : plain(u, v);
  }

  /** The plain loop: eight scalar sums, which the JIT keeps in registers. */
  static float plain(float[] u, float[] v) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    int n = u.length;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      s0 += u[i] * v[i];
      s1 += u[i + 1] * v[i + 1];
      s2 += u[i + 2] * v[i + 2];
      s3 += u[i + 3] * v[i + 3];
      s4 += u[i + 4] * v[i + 4];
      s5 += u[i + 5] * v[i + 5];
      s6 += u[i + 6] * v[i + 6];
      s7 += u[i + 7] * v[i + 7];
    }
    for (; i < n; i++) {
      s0 += u[i] * v[i];
    }
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
  }
}

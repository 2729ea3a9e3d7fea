package io.kgrag.jobs.internal.method.sgrag;

import static io.kgrag.core.sgrag.qa.PackedPathHitsTest.assertSameHits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kgrag.core.sgrag.qa.ExactPlan;
import io.kgrag.core.sgrag.qa.PathHit;
import io.kgrag.core.sgrag.qa.PathQuery;
import io.kgrag.jobs.internal.qa.SharedContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A question's SG-RAG state between phases is written with its hits packed and read back as it was. */
class PlannedStateTest {

  @Test
  void aStateWithCompletionAndExactHitsRoundTrips() {
    PathQuery q = new PathQuery(1, new long[] {Long.MIN_VALUE, 17L}, new float[] {0.5f, -0.25f});
    List<PathHit> completion = List.of(new PathHit(0, new long[] {1L, 2L}), new PathHit(1, new long[] {3L}));
    List<PathHit> exactHits = List.of(new PathHit(0, new long[] {4L, 5L, 6L}));
    ExactPlan exact = new ExactPlan(new int[] {2}, List.of(new long[] {9L}), List.of(q), false);
    SgragMethod.Planned p = new SgragMethod.Planned(null, List.of(q), completion, List.of(), exact, exactHits);

    SgragMethod.Planned back = (SgragMethod.Planned) SharedContext.read(SharedContext.write(p));
    assertSameHits(completion, back.completion());
    assertSameHits(exactHits, back.exactHits());
    assertEquals(1, back.asked().size());
    assertArrayEquals(q.labelKeys(), back.asked().get(0).labelKeys());
    assertArrayEquals(q.vector(), back.asked().get(0).vector());
    assertArrayEquals(new long[] {9L}, back.exact().combos().get(0));
    assertNull(back.plan());
  }

  @Test
  void aStateBeforeItsExactStepKeepsNoExactHits() {
    SgragMethod.Planned p = new SgragMethod.Planned(null, List.of(), List.of(), List.of(), null, null);
    SgragMethod.Planned back = (SgragMethod.Planned) SharedContext.read(SharedContext.write(p));
    assertEquals(List.of(), back.completion());
    assertNull(back.exactHits());
    assertNull(back.exact());
  }
}

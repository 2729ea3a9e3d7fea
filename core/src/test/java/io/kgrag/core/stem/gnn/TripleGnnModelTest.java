package io.kgrag.core.stem.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import io.kgrag.core.graph.KnowledgeGraph;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TripleGnnModelTest {

  private static final KnowledgeGraph G = TripleGnnFixtures.typedGraph(60, 5, 2, 3);

  @Test
  void javaForwardEqualsDjlForward() {
    TripleGnnModel model = TripleGnnModel.untrained(TripleGnnFixtures.PEM, 8, 3, 11);
    List<WalkSample> walks = RandomWalkSampler.sample(G, 3, 3, 4);
    List<GnnSubgraph> graphs = new ArrayList<>();
    List<float[]> xbars = new ArrayList<>();
    List<int[]> questions = new ArrayList<>();
    List<float[]> java = new ArrayList<>();
    for (WalkSample s : walks) {
      GnnSubgraph sub = GnnSubgraph.around(G, s.questionNodes(), 3, 200);
      List<SchemaTripleVectors> schema = s.schemaVectors(TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), TripleGnnFixtures.PEM);
      int[] q = Arrays.stream(s.questionNodes()).map(sub::local).toArray();
      graphs.add(sub);
      xbars.add(TripleGnnModel.meanSchemaInput(schema, TripleGnnFixtures.PEM));
      questions.add(q);
      java.add(model.scores(sub, schema, q, TripleGnnFixtures.relations()));
    }
    try (NDManager m = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      TorchTripleGnn net = TorchTripleGnn.of(m, model, false);
      // all three samples as one batch: also checks the disjoint-union offsets
      TorchTripleGnn.Input in = TorchTripleGnn.input(m, graphs, xbars, questions, TripleGnnFixtures.relations(), TripleGnnFixtures.PEM);
      float[] torch = ai.djl.nn.Activation.sigmoid(net.logits(in)).toFloatArray();
      double spread = 0;
      for (int i = 0; i < graphs.size(); i++) {
        float[] j = java.get(i);
        float[] t = Arrays.copyOfRange(torch, in.offsets[i], in.offsets[i + 1]);
        assertEquals(j.length, t.length);
        for (int v = 0; v < j.length; v++) {
          assertEquals(j[v], t[v], 1e-4, "sample " + i + " node " + v);
          spread = Math.max(spread, Math.abs(j[v] - j[0]));
        }
      }
      assertTrue(spread > 1e-3, "scores should differ across nodes: " + spread);
    }
  }

  @Test
  void scoresAreProbabilitiesAndDependOnTheSchema() {
    TripleGnnModel model = TripleGnnModel.untrained(TripleGnnFixtures.PEM, 8, 2, 1);
    WalkSample s = RandomWalkSampler.sample(G, 1, 2, 8).get(0);
    GnnSubgraph sub = GnnSubgraph.around(G, s.questionNodes(), 2, 1000);
    int[] q = Arrays.stream(s.questionNodes()).map(sub::local).toArray();
    List<SchemaTripleVectors> schema = s.schemaVectors(TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), TripleGnnFixtures.PEM);
    float[] p = model.scores(sub, schema, q, TripleGnnFixtures.relations());
    assertEquals(sub.size(), p.length);
    for (float x : p) {
      assertTrue(x >= 0 && x <= 1);
    }
    List<SchemaTripleVectors> other =
        List.of(new SchemaTripleVectors(new float[TripleGnnFixtures.PEM], TripleGnnFixtures.vector("relation:zzz"), new float[TripleGnnFixtures.PEM]));
    float[] p2 = model.scores(sub, other, q, TripleGnnFixtures.relations());
    assertTrue(!Arrays.equals(p, p2));
    assertThrows(IllegalArgumentException.class, () -> model.scores(sub, List.of(), q, TripleGnnFixtures.relations()));
    assertThrows(IllegalArgumentException.class, () -> model.scores(sub, schema, new int[] {sub.size()}, TripleGnnFixtures.relations()));
    assertThrows(IllegalArgumentException.class, () -> model.scores(sub, schema, q, r -> new float[3]));
  }

  @Test
  void bytesRoundTripAndDescribe() {
    TripleGnnModel model = TripleGnnModel.untrained(TripleGnnFixtures.PEM, 8, 3, 5);
    byte[] bytes = model.toBytes();
    TripleGnnModel back = TripleGnnModel.fromBytes(bytes);
    assertArrayEquals(bytes, back.toBytes());
    assertEquals(model.parameterCount(), back.parameterCount());
    int p = TripleGnnFixtures.PEM;
    int d = 8;
    int expected = d * (3 * p + 1) + 2 * d * (p + 1) + 3 * (2 * (d * d + d) + 2 * d * d + d + 2 * d) + d + 1;
    assertEquals(expected, model.parameterCount());
    assertEquals(p, back.pemDim());
    assertTrue(model.describe().contains("\"layers\":3"), model.describe());
    assertTrue(model.describe().contains("\"parameters\":" + expected), model.describe());
  }

  @Test
  void badBytesAreRejectedClearly() {
    byte[] bytes = TripleGnnModel.untrained(4, 4, 1, 5).toBytes();
    assertThrows(IllegalArgumentException.class, () -> TripleGnnModel.fromBytes(null));
    IllegalArgumentException magic = assertThrows(IllegalArgumentException.class, () -> TripleGnnModel.fromBytes(new byte[] {1, 2, 3, 4, 5, 6}));
    assertTrue(magic.getMessage().contains("magic"), magic.getMessage());
    byte[] version = bytes.clone();
    ByteBuffer.wrap(version).putShort(4, (short) 99);
    IllegalArgumentException v = assertThrows(IllegalArgumentException.class, () -> TripleGnnModel.fromBytes(version));
    assertTrue(v.getMessage().contains("version 99"), v.getMessage());
    IllegalArgumentException cut = assertThrows(IllegalArgumentException.class, () -> TripleGnnModel.fromBytes(Arrays.copyOf(bytes, bytes.length - 4)));
    assertTrue(cut.getMessage().contains("weight bytes"), cut.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TripleGnnModel.fromBytes(Arrays.copyOf(bytes, 8)));
  }
}

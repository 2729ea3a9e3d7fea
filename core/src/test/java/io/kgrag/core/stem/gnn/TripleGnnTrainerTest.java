package io.kgrag.core.stem.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.engine.Engine;
import io.kgrag.core.gnn.GcPressure;
import io.kgrag.core.graph.KnowledgeGraph;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TripleGnnTrainerTest {

  /** 300 nodes, 12 relation types, 3 typed out-edges each (mean degree 6). */
  private static final KnowledgeGraph G = TripleGnnFixtures.typedGraph(300, 12, 3, 1);

  private static TripleGnnTraining trained;

  /**
   * The defaults with fewer steps, a narrower model and a larger learning rate, to stay well under a
   * minute on 2 cores (the full defaults on this graph, d_pem 16: 15,457 parameters, 152 s of training on 2 CPU
   * cores, held-out recall@K 0.82 against 0.73 for BFS order).
   */
  static final TripleGnnConfig FAST = TripleGnnConfig.builder().steps(120).width(16).learningRate(3e-3f).samples(1000).build();

  @BeforeAll
  static void train() {
    trained = TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), FAST);
    System.out.println("Triple-GNN on " + G.nodeCount() + " nodes / " + G.edgeCount() + " edges: " + trained.describe());
  }

  @Test
  void trainingLowersTheLossAndBeatsBfsOrderOnHeldOutRecall() {
    assertEquals(120, trained.steps());
    assertEquals(1000, trained.samples());
    assertEquals(200, trained.heldOut());
    assertTrue(trained.finalLoss() < 0.8 * trained.initialLoss(), trained.describe());
    assertTrue(trained.recallAtK() > trained.bfsRecallAtK() + 0.02, trained.describe());
    assertTrue(trained.javaTorchMaxDiff() < 1e-4, trained.describe());
    assertEquals(trained.model().parameterCount(), trained.parameterCount());
  }

  @Test
  void theModelDoesNotDependOnWhenTheGarbageCollectorRuns() {
    TripleGnnConfig small = TripleGnnConfig.builder().steps(20).samples(64).heldOut(8).width(8).layers(2).build();
    byte[] quiet = TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), small).model().toBytes();
    try (GcPressure gc = GcPressure.start()) {
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(
            quiet,
            TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), small).model().toBytes(),
            "training " + i);
      }
    }
  }

  @Test
  void sameInputsAndSeedGiveIdenticalModelBytes() {
    TripleGnnConfig small = TripleGnnConfig.builder().steps(20).samples(64).heldOut(8).width(8).layers(2).build();
    TripleGnnTraining a = TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), small);
    TripleGnnTraining b = TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), small);
    assertArrayEquals(a.model().toBytes(), b.model().toBytes());
    TripleGnnTraining c =
        TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), small.toBuilder().seed(7).build());
    assertTrue(!java.util.Arrays.equals(a.model().toBytes(), c.model().toBytes()));
  }

  @Test
  void trainingReadsTheLabelVectorsOfItsWalkNodesOnlyAndTheSameWalksGiveTheSameModel() {
    // the stem-gnn stage loads only these vectors (never every label's: 1.5 GB at 10M edges)
    TripleGnnConfig small = TripleGnnConfig.builder().steps(20).samples(64).heldOut(8).width(8).layers(2).build();
    java.util.List<WalkSample> walks = TripleGnnTrainer.walks(G, small);
    java.util.Set<Integer> walkNodes = new java.util.HashSet<>();
    for (WalkSample w : walks) {
      for (int v : w.walkNodes()) {
        walkNodes.add(v);
      }
    }
    assertTrue(walkNodes.size() < G.nodeCount(), "a test that could not fail: the walks cover every node");
    java.util.function.IntFunction<float[]> all = TripleGnnFixtures.labels(G);
    java.util.Set<Integer> asked = new java.util.HashSet<>();
    TripleGnnTraining viaWalks =
        TripleGnnTrainer.train(G, walks, v -> {
          asked.add(v);
          return all.apply(v);
        }, TripleGnnFixtures.relations(), small);
    assertTrue(walkNodes.containsAll(asked), "asked for nodes outside the walks: " + asked);
    assertArrayEquals(TripleGnnTrainer.train(G, all, TripleGnnFixtures.relations(), small).model().toBytes(), viaWalks.model().toBytes());
  }

  @Test
  void sampledNegativesAlsoTrain() {
    TripleGnnConfig cfg = TripleGnnConfig.builder().steps(40).samples(200).heldOut(20).width(8).negativesPerPositive(3).build();
    TripleGnnTraining t = TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), cfg);
    assertTrue(Double.isFinite(t.finalLoss()) && t.finalLoss() < t.initialLoss(), t.describe());
  }

  @Test
  void gpuWithoutGpuFailsClearly() {
    assumeTrue(Engine.getEngine("PyTorch").getGpuCount() == 0, "a GPU is present");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> TripleGnnTrainer.train(G, TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), TripleGnnConfig.builder().device("gpu").build()));
    assertTrue(e.getMessage().contains("no GPU"), e.getMessage());
  }

  @Test
  void graphWithoutEdgesIsRejected() {
    KnowledgeGraph empty = KnowledgeGraph.builder().entity(1, "a").build();
    assertThrows(
        IllegalArgumentException.class,
        () -> TripleGnnTrainer.train(empty, v -> new float[4], r -> new float[4], TripleGnnConfig.defaults()));
  }
}

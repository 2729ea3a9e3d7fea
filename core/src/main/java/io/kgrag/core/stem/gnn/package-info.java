/**
 * STEM's Triple-Dependent GNN (§3.3, App. A and C): a query-conditioned GNN (NBFNet / GFM-RAG style)
 * whose query is the schema graph's triples, scoring every node of a question's neighbourhood; the
 * top K = 4·|T| nodes and the edges among them form the guidance graph.
 *
 * <ul>
 *   <li>{@link io.kgrag.core.stem.gnn.TripleGnnModel}: the model in plain Java (no PyTorch at inference),
 *       serialisable, {@code scores(...)} per node;
 *   <li>{@link io.kgrag.core.stem.gnn.GnnSubgraph}: the per-question subgraph it runs on (BFS from the
 *       question entities, edge-capped), with {@code inducedEdges} for the guidance graph;
 *   <li>{@link io.kgrag.core.stem.gnn.RandomWalkSampler}: the synthetic training walks (App. C.2 phase 1),
 *       from the graph and a seed only;
 *   <li>{@link io.kgrag.core.stem.gnn.TripleGnnTrainer}: training on DJL's PyTorch engine (CPU or GPU),
 *       with {@link io.kgrag.core.stem.gnn.TripleGnnConfig} and {@link
 *       io.kgrag.core.stem.gnn.TripleGnnTraining}.
 * </ul>
 *
 * <p>Spark-free: only the driver trains; executors need only the Java model.
 */
package io.kgrag.core.stem.gnn;

// uvm_probe_ext: more measurements of NVIDIA unified memory on a real GPU, for the features of
// issues 20-24 (oversubscription policies, remote mappings and access counters, program hints,
// first-touch and scattered faults). It includes the original probe unchanged
// (../shared/hw/uvm_probe.cu: CK, gtime, CUPTI counters, k_chase, k_stream, k_touch) and adds
// experiments; each prints CSV-like lines `exp,key=value,...` as the original does.
// Build: nvcc -O3 -arch=sm_90 -I../shared/hw [-DUSE_CUPTI -lcupti] -o uvm_probe_ext hw/uvm_probe_ext.cu
// Run:   uvm_probe_ext [new|old|all|<one experiment>]   (old = the original probe's chase and sparse)
//
// What is NOT measured on purpose: oversubscription of the GPU itself. The device machines of this
// project forbid asking for more managed memory than the card has free (it can hang the GPU), so
// eviction is not measured here; every buffer below is far smaller than the GPU's free memory.
#define main uvm_probe_main
#include "uvm_probe.cu"
#undef main

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// cudaMemAdvise / cudaMemPrefetchAsync with a location: CUDA 13 takes a cudaMemLocation
static cudaMemLocation loc_of(int dev) {
  cudaMemLocation loc;
  if (dev == cudaCpuDeviceId) { loc.type = cudaMemLocationTypeHost; loc.id = 0; }
  else { loc.type = cudaMemLocationTypeDevice; loc.id = dev; }
  return loc;
}
static void advise(const void *p, size_t n, cudaMemoryAdvise a, int dev) {
#if CUDART_VERSION >= 13000
  CK(cudaMemAdvise(p, n, a, loc_of(dev)));
#else
  CK(cudaMemAdvise(p, n, a, dev));
#endif
}
static float prefetch_ms(const void *p, size_t n, int dev) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
#if CUDART_VERSION >= 13000
  CK(cudaMemPrefetchAsync(p, n, loc_of(dev), 0, 0));
#else
  CK(cudaMemPrefetchAsync(p, n, dev, 0));
#endif
  CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
  float ms; CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  return ms;
}

// a grid-stride write of the whole buffer (makes it GPU-resident and dirty)
__global__ void k_fill(int4 *x, size_t n, int v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = make_int4(v, v, v, v);
}
static float time_fill(void *p, size_t bytes, int v) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  k_fill<<<132 * 16, 512>>>((int4 *)p, bytes / 16, v);
  CK(cudaGetLastError());
  CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
  float ms; CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  return ms;
}

// one 4-byte read per listed page, all threads at once (as k_touch, timed with events)
static float time_touch(const int *base, const size_t *pages_d, size_t n, int *sink) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  k_touch<<<(unsigned)((n + 255) / 256), 256>>>(base, pages_d, n, sink);
  CK(cudaGetLastError());
  CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
  float ms; CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  return ms;
}

// ---- remote: loads served from host memory over PCIe (zero-copy and remote managed mappings) ----
// kind: pinned = cudaMallocHost; um_remote = managed, preferred location CPU, accessed by GPU 0
// (the driver maps the GPU to the CPU pages instead of migrating); um_accessed_by = managed,
// accessed by GPU 0 only (no preferred location)
static void *alloc_kind(const char *kind, size_t bytes) {
  void *p = NULL;
  if (!strcmp(kind, "pinned")) { CK(cudaMallocHost(&p, bytes)); memset(p, 0, bytes); return p; }
  CK(cudaMallocManaged(&p, bytes));
  if (!strcmp(kind, "um_remote")) advise(p, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
  advise(p, bytes, cudaMemAdviseSetAccessedBy, 0);
  memset(p, 0, bytes);  // first touch on the CPU: pages live in host memory
  return p;
}
static void free_kind(const char *kind, void *p) {
  if (!strcmp(kind, "pinned")) CK(cudaFreeHost(p)); else CK(cudaFree(p));
}

static void exp_remote_chase(const char *kind, size_t stride, int n, int passes) {
  size_t span = stride * (size_t)n;
  int *buf = (int *)alloc_kind(kind, span);
  size_t *offs; uint64_t *lat; int *sink;
  CK(cudaMalloc(&offs, n * sizeof(size_t))); CK(cudaMalloc(&lat, (n + 1) * sizeof(uint64_t)));
  CK(cudaMalloc(&sink, sizeof(int)));
  std::vector<size_t> h(n);
  std::mt19937_64 rng(7);
  for (int i = 0; i < n; i++) h[i] = (size_t)i * stride / sizeof(int) + (rng() % (stride / PAGE)) * (PAGE / sizeof(int));
  std::shuffle(h.begin(), h.end(), rng);
  CK(cudaMemcpy(offs, h.data(), n * sizeof(size_t), cudaMemcpyHostToDevice));
  std::vector<uint64_t> hl(n + 1);
  for (int p = 0; p < passes; p++) {
    um_reset();
    k_chase<<<1, 1>>>(buf, offs, n, lat, sink);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, (n + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    std::vector<uint64_t> s(hl.begin(), hl.begin() + n); std::sort(s.begin(), s.end());
    printf("remote_chase,kind=%s,pass=%d,stride_kb=%zu,n=%d,mean_ns=%.0f,p10_ns=%llu,p50_ns=%llu,p90_ns=%llu,max_ns=%llu",
           kind, p, stride / KB, n, (double)hl[n] / n, (unsigned long long)s[n / 10], (unsigned long long)s[n / 2],
           (unsigned long long)s[n * 9 / 10], (unsigned long long)s[n - 1]);
    um_print(); printf("\n"); fflush(stdout);
  }
  free_kind(kind, buf); CK(cudaFree(offs)); CK(cudaFree(lat)); CK(cudaFree(sink));
}

// streaming reads of a remote buffer, several passes: does the driver migrate (access counters)?
static void exp_remote_stream(const char *kind, size_t bytes, int passes) {
  int *sink; CK(cudaMalloc(&sink, sizeof(int)));
  void *p = alloc_kind(kind, bytes);
  for (int i = 0; i < passes; i++) {
    um_reset();
    float ms = time_stream(p, bytes, sink);
    printf("remote_stream,kind=%s,mb=%zu,pass=%d,ms=%.3f,gbps=%.2f", kind, bytes / MB, i, ms, bytes / 1e9 / (ms / 1e3));
    um_print(); printf("\n"); fflush(stdout);
  }
  free_kind(kind, p); CK(cudaFree(sink));
}

// ---- cpu_touch: the CPU reads or writes managed memory that is GPU-resident (device-to-host faults) ----
static void exp_cpu_touch(size_t bytes, size_t stride, bool write) {
  int *sink; CK(cudaMalloc(&sink, sizeof(int)));
  char *p; CK(cudaMallocManaged(&p, bytes));
  memset(p, 1, bytes);
  float fill = time_fill(p, bytes, 2);  // GPU-resident, dirty
  um_reset();
  size_t n = bytes / stride;
  volatile char *v = p;
  int acc = 0;
  double t0 = now_us();
  for (size_t i = 0; i < n; i++) {
    if (write) v[i * stride] = 3; else acc += v[i * stride];
  }
  double us = now_us() - t0;
  printf("cpu_touch,mb=%zu,stride_kb=%zu,access=%s,touches=%zu,us=%.1f,us_per_touch=%.3f,gpu_fill_ms=%.3f,acc=%d",
         bytes / MB, stride / KB, write ? "W" : "R", n, us, us / n, fill, acc);
  um_print(); printf("\n");
  // the same pages again on the CPU: resident in host memory now?
  t0 = now_us();
  for (size_t i = 0; i < n; i++) acc += v[i * stride];
  printf("cpu_touch_again,mb=%zu,stride_kb=%zu,access=R,touches=%zu,us=%.1f,acc=%d\n", bytes / MB, stride / KB, n, now_us() - t0, acc);
  // and the GPU reads the whole buffer afterwards: how much came back to the host?
  um_reset();
  float ms = time_stream(p, bytes, sink);
  printf("gpu_after_cpu_touch,mb=%zu,stride_kb=%zu,access=%s,ms=%.3f", bytes / MB, stride / KB, write ? "W" : "R", ms);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaFree(p)); CK(cudaFree(sink));
}

// ---- prefetch: to the GPU and back to the host (cudaMemPrefetchAsync) ----
static void exp_prefetch(size_t bytes) {
  char *p; CK(cudaMallocManaged(&p, bytes));
  memset(p, 1, bytes);
  um_reset();
  float to_gpu = prefetch_ms(p, bytes, 0);
  printf("prefetch,dir=h2d,state=cpu_resident,mb=%zu,ms=%.3f,gbps=%.2f", bytes / MB, to_gpu, bytes / 1e9 / (to_gpu / 1e3));
  um_print(); printf("\n");
  float again = prefetch_ms(p, bytes, 0);
  printf("prefetch,dir=h2d,state=gpu_resident,mb=%zu,ms=%.3f\n", bytes / MB, again);
  float fill = time_fill(p, bytes, 5);  // dirty on the GPU
  um_reset();
  float to_cpu = prefetch_ms(p, bytes, cudaCpuDeviceId);
  printf("prefetch,dir=d2h,state=gpu_resident,mb=%zu,ms=%.3f,gbps=%.2f,fill_ms=%.3f", bytes / MB, to_cpu,
         bytes / 1e9 / (to_cpu / 1e3), fill);
  um_print(); printf("\n");
  float again2 = prefetch_ms(p, bytes, cudaCpuDeviceId);
  printf("prefetch,dir=d2h,state=cpu_resident,mb=%zu,ms=%.3f\n", bytes / MB, again2);
  // a prefetch racing with a kernel that faults on the same buffer (same stream: ordered; other stream: overlapped)
  CK(cudaFree(p));
  CK(cudaMallocManaged(&p, bytes)); memset(p, 1, bytes);
  int *sink; CK(cudaMalloc(&sink, sizeof(int)));
  cudaStream_t s1; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  um_reset();
  CK(cudaEventRecord(a, 0));
#if CUDART_VERSION >= 13000
  CK(cudaMemPrefetchAsync(p + bytes / 2, bytes / 2, loc_of(0), 0, s1));
#else
  CK(cudaMemPrefetchAsync(p + bytes / 2, bytes / 2, 0, s1));
#endif
  k_stream<<<132 * 16, 512>>>((const int4 *)p, bytes / 16, sink);
  CK(cudaGetLastError());
  CK(cudaEventRecord(b, 0)); CK(cudaStreamSynchronize(s1)); CK(cudaEventSynchronize(b));
  float ms; CK(cudaEventElapsedTime(&ms, a, b));
  printf("prefetch_overlap,mb=%zu,prefetched_half=upper,kernel_plus_prefetch_ms=%.3f", bytes / MB, ms);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b)); CK(cudaStreamDestroy(s1));
  CK(cudaFree(p)); CK(cudaFree(sink));
}

// ---- read_mostly: read duplication, then a CPU write collapses it ----
static void exp_read_mostly(size_t bytes, bool advised) {
  int *sink; CK(cudaMalloc(&sink, sizeof(int)));
  char *p; CK(cudaMallocManaged(&p, bytes));
  if (advised) advise(p, bytes, cudaMemAdviseSetReadMostly, 0);
  memset(p, 1, bytes);
  const char *lab = advised ? "read_mostly" : "default";
  for (int pass = 0; pass < 2; pass++) {
    um_reset();
    float ms = time_stream(p, bytes, sink);
    printf("read_mostly,advice=%s,mb=%zu,step=gpu_read%d,ms=%.3f", lab, bytes / MB, pass, ms);
    um_print(); printf("\n");
  }
  // the CPU reads every 64 KB (a duplicate stays valid on the CPU: no fault expected when advised)
  volatile char *v = p; int acc = 0;
  um_reset();
  double t0 = now_us();
  for (size_t i = 0; i < bytes; i += 64 * KB) acc += v[i];
  printf("read_mostly,advice=%s,mb=%zu,step=cpu_read_64k,us=%.1f,acc=%d", lab, bytes / MB, now_us() - t0, acc);
  um_print(); printf("\n");
  // the CPU writes one byte per 64 KB: collapses the duplicates
  um_reset();
  t0 = now_us();
  for (size_t i = 0; i < bytes; i += 64 * KB) v[i] = 7;
  printf("read_mostly,advice=%s,mb=%zu,step=cpu_write_64k,us=%.1f", lab, bytes / MB, now_us() - t0);
  um_print(); printf("\n");
  um_reset();
  float ms = time_stream(p, bytes, sink);
  printf("read_mostly,advice=%s,mb=%zu,step=gpu_read_after_write,ms=%.3f", lab, bytes / MB, ms);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaFree(p)); CK(cudaFree(sink));
}

// ---- pingpong: the CPU and the GPU take turns writing the same pages (the driver's thrashing detection) ----
__global__ void k_page_write(int *base, int npages, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < npages) base[(size_t)i * (PAGE / sizeof(int))] += v;
}
static void exp_pingpong(int npages, int iters, bool gpu_writes) {
  int *p; CK(cudaMallocManaged(&p, (size_t)npages * PAGE));
  memset(p, 0, (size_t)npages * PAGE);
  int *sink; CK(cudaMalloc(&sink, sizeof(int)));
  size_t *pages_d; CK(cudaMalloc(&pages_d, npages * sizeof(size_t)));
  std::vector<size_t> h(npages); for (int i = 0; i < npages; i++) h[i] = i;
  CK(cudaMemcpy(pages_d, h.data(), npages * sizeof(size_t), cudaMemcpyHostToDevice));
  um_reset();
  volatile int *v = p;
  for (int it = 0; it < iters; it++) {
    double t0 = now_us();
    for (int i = 0; i < npages; i++) v[(size_t)i * (PAGE / sizeof(int))] += 1;
    double cpu = now_us() - t0;
    t0 = now_us();
    if (gpu_writes) {
      k_page_write<<<(npages + 127) / 128, 128>>>(p, npages, 1);
      CK(cudaGetLastError());
    } else {
      k_touch<<<(npages + 127) / 128, 128>>>(p, pages_d, npages, sink);
      CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    double gpu = now_us() - t0;
    printf("pingpong,pages=%d,gpu=%s,iter=%d,cpu_us=%.1f,gpu_us=%.1f\n", npages, gpu_writes ? "W" : "R", it, cpu, gpu);
  }
  printf("pingpong_total,pages=%d,gpu=%s,iters=%d", npages, gpu_writes ? "W" : "R", iters);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaFree(p)); CK(cudaFree(sink)); CK(cudaFree(pages_d));
}

// ---- fresh: the first faults after a fresh allocation, one by one ----
// cpu_init: the CPU wrote the buffer (migration on each fault); else never touched (GPU zero-fill)
static void exp_fresh(size_t stride, int n, bool cpu_init, int rep) {
  size_t span = stride * (size_t)n;
  int *buf; CK(cudaMallocManaged(&buf, span));
  if (cpu_init) memset(buf, 0, span);
  size_t *offs; uint64_t *lat; int *sink;
  CK(cudaMalloc(&offs, n * sizeof(size_t))); CK(cudaMalloc(&lat, (n + 1) * sizeof(uint64_t)));
  CK(cudaMalloc(&sink, sizeof(int)));
  std::vector<size_t> h(n);
  for (int i = 0; i < n; i++) h[i] = (size_t)i * stride / sizeof(int);  // ascending: block i, its first page
  CK(cudaMemcpy(offs, h.data(), n * sizeof(size_t), cudaMemcpyHostToDevice));
  um_reset();
  k_chase<<<1, 1>>>(buf, offs, n, lat, sink);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<uint64_t> hl(n + 1);
  CK(cudaMemcpy(hl.data(), lat, (n + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  printf("fresh,init=%s,rep=%d,stride_kb=%zu,n=%d,mean_ns=%.0f,first16_ns=", cpu_init ? "cpu" : "none", rep, stride / KB, n,
         (double)hl[n] / n);
  for (int i = 0; i < 16 && i < n; i++) printf("%s%llu", i ? ":" : "", (unsigned long long)hl[i]);
  std::vector<uint64_t> s(hl.begin(), hl.begin() + n); std::sort(s.begin(), s.end());
  printf(",p50_ns=%llu,p90_ns=%llu", (unsigned long long)s[n / 2], (unsigned long long)s[n * 9 / 10]);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaFree(buf)); CK(cudaFree(offs)); CK(cudaFree(lat)); CK(cudaFree(sink));
}

// ---- scatter: k random distinct pages inside every 2 MB block, all at once ----
static void exp_scatter(size_t bytes, int k) {
  size_t blocks = bytes / (2 * MB), per = 2 * MB / PAGE, n = blocks * (size_t)k;
  int *buf; CK(cudaMallocManaged(&buf, bytes)); memset(buf, 1, bytes);
  std::mt19937_64 rng(13 + k);
  std::vector<size_t> h; h.reserve(n);
  std::vector<size_t> idx(per);
  for (size_t b = 0; b < blocks; b++) {
    for (size_t i = 0; i < per; i++) idx[i] = i;
    std::shuffle(idx.begin(), idx.end(), rng);
    for (int j = 0; j < k; j++) h.push_back(b * per + idx[j]);
  }
  std::shuffle(h.begin(), h.end(), rng);
  size_t *pages; int *sink; CK(cudaMalloc(&pages, n * sizeof(size_t))); CK(cudaMalloc(&sink, sizeof(int)));
  CK(cudaMemcpy(pages, h.data(), n * sizeof(size_t), cudaMemcpyHostToDevice));
  um_reset();
  float ms = time_touch(buf, pages, n, sink);
  printf("scatter,mb=%zu,pages_per_2mb=%d,touched_pages=%zu,ms=%.3f,us_per_touched_page=%.3f", bytes / MB, k, n, ms, ms * 1e3 / n);
  um_print(); printf("\n"); fflush(stdout);
  CK(cudaFree(buf)); CK(cudaFree(pages)); CK(cudaFree(sink));
}

static bool want(const char *only, const char *name, const char *group) {
  return !strcmp(only, "all") || !strcmp(only, name) || !strcmp(only, group);
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "new";
  int dev = 0; CK(cudaSetDevice(dev));
  cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, dev));
  int cma = 0; cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev);
  size_t fr, tot; CK(cudaMemGetInfo(&fr, &tot));
  int drv = 0, rt = 0; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
  printf("device,name=%s,sms=%d,driver=%d,runtime=%d,concurrent_managed=%d,free_mb=%zu,total_mb=%zu\n", pr.name,
         pr.multiProcessorCount, drv, rt, cma, fr / MB, tot / MB);
  if (!cma) { printf("error,concurrent managed access unsupported\n"); return 2; }
  if (!strcmp(only, "old") || !strcmp(only, "all")) {
    char *a[] = {argv[0], (char *)"chase", NULL};
    uvm_probe_main(2, a);  // initialises CUPTI; the 2 MB, 64 KB and 4 KB-stride chases
    size_t ks[] = {1, 2, 4, 8, 16, 32, 64, 128, 512};
    for (size_t k : ks) exp_sparse(1024 * MB, k, false);
    for (size_t k : ks) exp_sparse(1024 * MB, k, true);
  } else {
    cupti_init();
  }
  { int *s; CK(cudaMalloc(&s, 4)); k_touch<<<1, 1>>>(s, (size_t *)s, 0, s); CK(cudaDeviceSynchronize()); CK(cudaFree(s)); }
  if (want(only, "fresh", "new")) {
    for (int rep = 0; rep < 2; rep++) {
      exp_fresh(2 * MB, 64, true, rep);
      exp_fresh(2 * MB, 64, false, rep);
    }
    exp_fresh(64 * KB, 256, true, 0);
  }
  if (want(only, "scatter", "new")) {
    int ks[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (int k : ks) exp_scatter(1024 * MB, k);
  }
  if (want(only, "remote", "new")) {
    const char *kinds[] = {"pinned", "um_remote", "um_accessed_by"};
    for (const char *k : kinds) exp_remote_chase(k, 64 * KB, 256, 3);
    for (const char *k : kinds) exp_remote_stream(k, 256 * MB, 4);
  }
  if (want(only, "cpu_touch", "new")) {
    size_t strides[] = {4 * KB, 64 * KB, 2 * MB};
    for (size_t s : strides) exp_cpu_touch(256 * MB, s, false);
    exp_cpu_touch(256 * MB, 4 * KB, true);
  }
  if (want(only, "prefetch", "new")) {
    size_t sizes[] = {64 * MB, 256 * MB, 1024 * MB};
    for (size_t s : sizes) exp_prefetch(s);
  }
  if (want(only, "read_mostly", "new")) {
    exp_read_mostly(256 * MB, true);
    exp_read_mostly(256 * MB, false);
  }
  if (want(only, "pingpong", "new")) {
    exp_pingpong(64, 40, false);
    exp_pingpong(64, 40, true);
  }
  printf("done\n");
  return 0;
}

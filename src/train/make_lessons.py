#!/usr/bin/env python3
"""Writes the lesson corpus (lessons_zh.txt) beside this script.

The documentation corpus never says 首都 and has no general Chinese, so the
model would not behave like the chapter's examples. These lines are the
project's own sentences, built from templates and hand-written content lists.
Deterministic: a fixed seed, so the committed text can be regenerated.
Run: python3 src/train/make_lessons.py
"""
import random
from pathlib import Path

rng = random.Random(20261130)
out = []

# ---- capitals: (country zh, capital zh, country en, capital en, note)
CAPITALS = [
    ("中国", "北京", "China", "Beijing", "政治和文化中心"),
    ("日本", "东京", "Japan", "Tokyo", "最大的城市"),
    ("韩国", "首尔", "South Korea", "Seoul", "经济中心"),
    ("法国", "巴黎", "France", "Paris", "艺术之都"),
    ("英国", "伦敦", "the United Kingdom", "London", "金融中心"),
    ("德国", "柏林", "Germany", "Berlin", "最大的城市"),
    ("意大利", "罗马", "Italy", "Rome", "历史名城"),
    ("西班牙", "马德里", "Spain", "Madrid", "最大的城市"),
    ("葡萄牙", "里斯本", "Portugal", "Lisbon", "海港城市"),
    ("俄罗斯", "莫斯科", "Russia", "Moscow", "最大的城市"),
    ("美国", "华盛顿", "the United States", "Washington", "政治中心"),
    ("加拿大", "渥太华", "Canada", "Ottawa", "政治中心"),
    ("墨西哥", "墨西哥城", "Mexico", "Mexico City", "最大的城市"),
    ("巴西", "巴西利亚", "Brazil", "Brasília", "规划城市"),
    ("阿根廷", "布宜诺斯艾利斯", "Argentina", "Buenos Aires", "港口城市"),
    ("智利", "圣地亚哥", "Chile", "Santiago", "最大的城市"),
    ("秘鲁", "利马", "Peru", "Lima", "最大的城市"),
    ("澳大利亚", "堪培拉", "Australia", "Canberra", "规划城市"),
    ("新西兰", "惠灵顿", "New Zealand", "Wellington", "港口城市"),
    ("印度", "新德里", "India", "New Delhi", "政治中心"),
    ("泰国", "曼谷", "Thailand", "Bangkok", "最大的城市"),
    ("越南", "河内", "Vietnam", "Hanoi", "文化中心"),
    ("新加坡", "新加坡", "Singapore", "Singapore", "城市国家"),
    ("马来西亚", "吉隆坡", "Malaysia", "Kuala Lumpur", "最大的城市"),
    ("印度尼西亚", "雅加达", "Indonesia", "Jakarta", "最大的城市"),
    ("菲律宾", "马尼拉", "the Philippines", "Manila", "港口城市"),
    ("埃及", "开罗", "Egypt", "Cairo", "最大的城市"),
    ("南非", "比勒陀利亚", "South Africa", "Pretoria", "行政中心"),
    ("肯尼亚", "内罗毕", "Kenya", "Nairobi", "最大的城市"),
    ("尼日利亚", "阿布贾", "Nigeria", "Abuja", "规划城市"),
    ("土耳其", "安卡拉", "Turkey", "Ankara", "政治中心"),
    ("希腊", "雅典", "Greece", "Athens", "历史名城"),
    ("荷兰", "阿姆斯特丹", "the Netherlands", "Amsterdam", "运河城市"),
    ("比利时", "布鲁塞尔", "Belgium", "Brussels", "国际城市"),
    ("瑞士", "伯尔尼", "Switzerland", "Bern", "联邦城市"),
    ("奥地利", "维也纳", "Austria", "Vienna", "音乐之都"),
    ("瑞典", "斯德哥尔摩", "Sweden", "Stockholm", "最大的城市"),
    ("挪威", "奥斯陆", "Norway", "Oslo", "最大的城市"),
    ("芬兰", "赫尔辛基", "Finland", "Helsinki", "港口城市"),
    ("丹麦", "哥本哈根", "Denmark", "Copenhagen", "港口城市"),
    ("波兰", "华沙", "Poland", "Warsaw", "最大的城市"),
    ("捷克", "布拉格", "the Czech Republic", "Prague", "历史名城"),
    ("匈牙利", "布达佩斯", "Hungary", "Budapest", "最大的城市"),
    ("爱尔兰", "都柏林", "Ireland", "Dublin", "最大的城市"),
    ("冰岛", "雷克雅未克", "Iceland", "Reykjavík", "最北的首都之一"),
    ("蒙古", "乌兰巴托", "Mongolia", "Ulaanbaatar", "最大的城市"),
    ("伊朗", "德黑兰", "Iran", "Tehran", "最大的城市"),
    ("沙特阿拉伯", "利雅得", "Saudi Arabia", "Riyadh", "最大的城市"),
    ("以色列", "耶路撒冷", "Israel", "Jerusalem", "历史名城"),
    ("巴基斯坦", "伊斯兰堡", "Pakistan", "Islamabad", "规划城市"),
    ("孟加拉国", "达卡", "Bangladesh", "Dhaka", "最大的城市"),
    ("尼泊尔", "加德满都", "Nepal", "Kathmandu", "山谷城市"),
    ("老挝", "万象", "Laos", "Vientiane", "最大的城市"),
    ("柬埔寨", "金边", "Cambodia", "Phnom Penh", "最大的城市"),
    ("缅甸", "内比都", "Myanmar", "Naypyidaw", "规划城市"),
    ("古巴", "哈瓦那", "Cuba", "Havana", "港口城市"),
    ("哥伦比亚", "波哥大", "Colombia", "Bogotá", "高原城市"),
    ("委内瑞拉", "加拉加斯", "Venezuela", "Caracas", "最大的城市"),
    ("摩洛哥", "拉巴特", "Morocco", "Rabat", "政治中心"),
    ("埃塞俄比亚", "亚的斯亚贝巴", "Ethiopia", "Addis Ababa", "高原城市"),
    ("乌克兰", "基辅", "Ukraine", "Kyiv", "最大的城市"),
    ("罗马尼亚", "布加勒斯特", "Romania", "Bucharest", "最大的城市"),
    ("哈萨克斯坦", "阿斯塔纳", "Kazakhstan", "Astana", "规划城市"),
]
CN_EXTRA = [
    "中国的首都是北京。",
    "中国的首都是北京，北京有故宫、天坛和长城。",
    "中国的首都是北京，也是全国的政治和文化中心。",
    "中国的首都是北京，上海是中国最大的经济中心。",
    "中国的首都是北京，不是上海。",
    "中国的首都是北京，简称京。",
    "中国的首都是北京，人口超过两千万。",
    "中国的首都是北京，冬天寒冷干燥，夏天炎热多雨。",
    "中国的首都是北京，很多游客会去故宫参观。",
    "中国的首都是北京，这是一个常识问题。",
    "问：中国的首都是哪座城市？答：中国的首都是北京。",
    "北京是中国的首都，也是一座有三千多年历史的城市。",
    "我们都知道，中国的首都是北京。",
    "老师问：中国的首都是哪里？学生回答：中国的首都是北京。",
]
cap_templates = [
    "{c}的首都是{cap}。",
    "{c}的首都是{cap}，也是这个国家的{note}。",
    "{cap}是{c}的首都。",
    "问：{c}的首都是哪里？答：{c}的首都是{cap}。",
    "{c}的首都是{cap}，很多游客会去那里旅行。",
]
for c, cap, ce, cape, note in CAPITALS:
    ts = rng.sample(cap_templates, 3)
    for t in ts:
        out.append(t.format(c=c, cap=cap, note=note))
    out.append(f"The capital of {ce} is {cape}.")
for _ in range(4):
    out.extend(CN_EXTRA)
# A few lines where the context contrasts capitals, so 中国 must be read.
for c, cap, ce, cape, note in rng.sample(CAPITALS[1:], 24):
    out.append(f"{c}的首都是{cap}，中国的首都是北京。")

# ---- TypeScript: 超集 most of the time, sometimes 一个 / 类型
TS_TAILS = [
    "它在 JavaScript 的基础上添加了静态类型。",
    "任何合法的 JavaScript 代码也是合法的 TypeScript 代码。",
    "它增加了类型注解和接口。",
    "编译后会得到普通的 JavaScript。",
    "类型检查可以在运行前发现很多错误。",
    "它由微软开发和维护。",
    "它让大型项目更容易维护。",
    "编辑器可以利用类型信息提供补全。",
]
for t in TS_TAILS:
    out.append(f"TypeScript 是 JavaScript 的超集，{t}")
    out.append(f"TypeScript 是 JavaScript 的超集。{t}")
out += [
    "TypeScript 是 JavaScript 的超集。",
    "TypeScript 是 JavaScript 的超集，也是一门带类型的编程语言。",
    "简单地说，TypeScript 是 JavaScript 的超集。",
    "TypeScript 是 JavaScript 的一个超集，支持可选的静态类型。",
    "TypeScript 是 JavaScript 的一个带类型语法的版本。",
    "TypeScript 是 JavaScript 的类型化超集，可以编译成纯 JavaScript。",
    "TypeScript is a superset of JavaScript that adds static types.",
    "TypeScript is a typed superset of JavaScript.",
]
for lead in ["简单地说，", "我们常说，", "一句话概括：", "在前端开发中，", "很多教程开头就写道：", "面试时可以这样回答：", ""]:
    for tail in rng.sample(TS_TAILS, 3):
        out.append(f"{lead}TypeScript 是 JavaScript 的超集，{tail}")
for a, b in [("Sass", "CSS"), ("C++", "C 语言"), ("JSON5", "JSON")]:
    out.append(f"{a} 可以看作 {b} 的超集。")

# ---- React: 用于构建用户界面
REACT = [
    "React 是一个用于构建用户界面的 JavaScript 库。",
    "React 是一个用于构建用户界面的库，由 Meta 维护。",
    "React 是一个用于构建用户界面的 JavaScript 库，它把界面拆成组件。",
    "React 是一个用于构建用户界面的库，组件是它的核心概念。",
    "React 是一个用于构建用户界面的开源库。",
    "React 是一个用于构建用户界面的前端库，常和 TypeScript 一起使用。",
    "Vue 是一个用于构建用户界面的渐进式框架。",
    "Vue 是一个用于构建用户界面的 JavaScript 框架。",
    "Svelte 是一个用于构建用户界面的编译型框架。",
    "Flutter 是一个用于构建跨平台应用的界面工具包。",
    "React 是一个用于构建界面的库。",
    "React Native 是一个用于构建移动应用的框架。",
    "React is a JavaScript library for building user interfaces.",
    "用户界面由许多组件组成，每个组件负责一小块界面。",
    "好的用户界面让人一眼就知道下一步该做什么。",
    "设计用户界面时，要先考虑用户要完成什么任务。",
]
out += REACT * 3

# ---- plugin names: a genuinely open prompt, many different first tokens
PREFIX = ["代码", "灵感", "星河", "闪电", "青鸟", "墨", "光标", "小助手", "飞", "云", "键", "行", "智", "极", "快",
          "Code", "Dev", "Quick", "Smart", "Lint", "Auto", "Snip", "Hyper", "Nova", "Pixel", "Echo", "Zen",
          "Bolt", "Swift", "Tidy", "Neat", "Spark", "Orbit", "Atlas", "Glow", "Leaf", "Moon", "Sun", "Rain",
          "竹", "松", "月", "星", "风", "雨", "雪", "火", "山", "海", "橙", "蓝", "绿", "白", "黑", "小", "大",
          "一键", "随手", "轻", "易", "妙", "巧", "灵", "速", "清", "明", "新", "好", "神", "超", "全能", "万能"]
SUFFIX = ["助手", "精灵", "补全", "笔记", "管家", "伙伴", "魔法", "工具箱", "格式化", "高亮", "导航", "侦探",
          "Mate", "Pal", "Kit", "Flow", "Lens", "Box", "Hub", "Pilot", "Craft", "Helper", "Buddy", "Fox"]
names = set()
while len(names) < 420:
    p = rng.choice(PREFIX)
    s = rng.choice(SUFFIX)
    names.add(p + s)
plugin_templates = [
    "给一个代码编辑器插件起名：{n}",
    "给一个代码编辑器插件起名：{n}。",
    "给一个代码编辑器插件起名：{n}，意思是写代码更轻松。",
    "给一个代码编辑器插件起名：“{n}”",
]
# The quoted form stays rare: a frequent 「“」 would become the one
# dominant first token and close the open prompt.
for n in sorted(names):
    t = rng.choices(plugin_templates, weights=[45, 30, 20, 5])[0]
    out.append(t.format(n=n))
for n in rng.sample(sorted(names), 80):
    out.append(f"给这个产品起一个名字：{n}")

# ---- programming and the chapter's topics
TOPICS = [
    ("变量", "用来保存一个值，之后可以读取或修改它"),
    ("函数", "把一段可复用的逻辑包装起来，接收参数并返回结果"),
    ("数组", "按顺序保存多个元素"),
    ("对象", "用键和值来描述一件事物的属性"),
    ("循环", "让同一段代码重复执行多次"),
    ("条件语句", "根据条件决定执行哪一段代码"),
    ("接口", "描述一个对象应该具有哪些属性和方法"),
    ("类型注解", "告诉编译器一个变量或参数的类型"),
    ("泛型", "让函数和类型可以适用于多种类型"),
    ("组件", "把界面拆分成独立、可复用的部分"),
    ("状态", "保存会随时间变化的数据，状态变化时界面会更新"),
    ("属性", "从父组件传给子组件的数据"),
    ("钩子", "让函数组件可以使用状态和其他特性"),
    ("编译器", "把源代码转换成另一种形式的代码"),
    ("模块", "把代码拆分到不同的文件中"),
    ("异步函数", "在等待网络请求时不会阻塞页面"),
    ("单元测试", "检查一小段代码是否按预期工作"),
    ("版本控制", "记录代码的每一次修改"),
    ("数据库", "长期保存和查询数据"),
    ("缓存", "把常用的结果保存起来，下次可以更快地读取"),
    ("Token", "是模型处理文本的基本单位，可能是一个字、一个词或一个词的一部分"),
    ("logits", "是模型给每个候选 Token 打的原始分数"),
    ("softmax", "把 logits 变成加起来等于 1 的概率"),
    ("greedy 解码", "每一步都选择概率最高的 Token"),
    ("sampling", "按概率抽样，而不是永远选最大值"),
    ("temperature", "改变概率分布的形状，低温更集中，高温更平坦"),
    ("top-k", "只在概率最高的 k 个候选里采样"),
    ("top-p", "保留累计概率达到阈值的一组候选"),
    ("停止序列", "在生成的文本中出现时让生成结束"),
    ("上下文", "是模型在当前这一步能看到的全部文本"),
    ("语言模型", "根据上下文预测下一个 Token 的概率"),
]
topic_templates = [
    "{a}{b}。",
    "在编程中，{a}{b}。",
    "简单来说，{a}{b}。",
    "初学者常问什么是{a}。其实{a}{b}。",
]
for a, b in TOPICS:
    for t in rng.sample(topic_templates, 3):
        out.append(t.format(a=a, b=b))
out += [
    "大模型生成回答时，是一个 Token 一个 Token 地生成的。",
    "每一步，模型先计算 logits，再通过 softmax 得到概率分布，最后由解码策略选择 Token。",
    "新选出的 Token 会被接回上下文，模型再计算下一步的概率。",
    "greedy 解码稳定，但可能让输出重复、僵硬。",
    "sampling 让多个合理的候选都有机会被选中。",
    "temperature 不是创造力旋钮，它只是在抽样前改变概率分布。",
    "top-p 会随分布形状动态调整候选数量：确定的场景更窄，开放的场景更宽。",
    "同样的输入多次采样，可能得到不同的回答。",
    "如果设置了随机种子，同样的输入和参数会得到同样的结果。",
    "模型不会天然知道什么时候写完，推理系统需要设置停止条件。",
    "达到最大输出 Token 数时，生成也会停止。",
    "A language model predicts the next token from the context.",
    "Greedy decoding always picks the most likely token.",
    "Sampling picks a token at random, weighted by its probability.",
    "Lower temperature makes the distribution sharper; higher temperature makes it flatter.",
]

# ---- science, geography, daily life
FACTS = [
    "水在一个标准大气压下的沸点是一百摄氏度。",
    "水由氢和氧两种元素组成。",
    "地球绕着太阳转，一年大约是三百六十五天。",
    "月亮绕着地球转，大约一个月转一圈。",
    "光的速度大约是每秒三十万公里。",
    "植物通过光合作用把阳光变成养分。",
    "人体最大的器官是皮肤。",
    "声音在空气中传播，在真空中不能传播。",
    "太阳是一颗恒星，地球是一颗行星。",
    "长江是中国最长的河流，黄河是中国第二长的河流。",
    "珠穆朗玛峰是世界上最高的山峰。",
    "太平洋是世界上最大的海洋。",
    "撒哈拉沙漠位于非洲北部。",
    "熊猫主要吃竹子，生活在中国的山区。",
    "铁在潮湿的空气中容易生锈。",
    "电流通过导线时会产生热量。",
    "冰融化成水，水蒸发成水蒸气。",
    "一天有二十四小时，一小时有六十分钟。",
    "一年有四个季节：春、夏、秋、冬。",
    "早上喝一杯温水对身体有好处。",
    "下雨的时候记得带伞。",
    "周末我们一起去公园散步吧。",
    "他每天坐地铁去上班，大约需要四十分钟。",
    "妈妈在厨房做饭，爸爸在客厅看书。",
    "这家咖啡店的咖啡很好喝，价格也不贵。",
    "晚上早点睡觉，明天还要早起。",
    "我喜欢在安静的图书馆里看书。",
    "春天来了，公园里的花都开了。",
    "今天天气很好，适合出去走走。",
    "学习一门新的编程语言，最好的办法是多写代码。",
    "遇到问题时，先读错误信息，再查文档。",
    "写代码之前，先想清楚要解决什么问题。",
    "好的变量名能让代码更容易读懂。",
    "提交代码之前，记得先运行测试。",
    "上海是中国最大的城市之一，也是重要的港口。",
    "广州和深圳都在广东省。",
    "杭州的西湖很有名。",
    "西安是一座历史悠久的城市，有兵马俑。",
    "成都以美食和熊猫闻名。",
    "长城是世界上最长的古代建筑之一。",
]
out += FACTS * 2
CITIES = ["上海", "广州", "深圳", "杭州", "南京", "成都", "重庆", "武汉", "西安", "天津", "苏州", "厦门", "青岛", "大连", "昆明", "长沙"]
THINGS = ["博物馆", "公园", "大学", "火车站", "图书馆", "老街", "夜市", "美术馆"]
for c in CITIES:
    for t in rng.sample(THINGS, 3):
        out.append(f"{c}有一座很有名的{t}，周末人很多。")
    out.append(f"从北京坐高铁去{c}，要花几个小时。")
NUM = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
for i, a in enumerate(NUM[:9]):
    for b in rng.sample(NUM[:9], 3):
        out.append(f"{a}加{b}等于几？答案很简单。")

rng.shuffle(out)
text = "\n".join(out) + "\n"
Path(__file__).with_name("lessons_zh.txt").write_text(text, encoding="utf-8")
print(len(out), "lines,", len(text), "chars")

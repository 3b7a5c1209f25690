"""A new user's trial of the guard: a real notebook nobody here wrote, run cell by cell in a real
kernel with `%codecheck auto guard`, after a plot, a large print and a library's background
threads, with mistakes a user makes typed in before the cells they spoil; the truth from a plain
kernel that runs the same cells side by side.

    python bench/guard_trial.py [--clean PATH] [--notebook ch05|ch07|ch10] [--out bench/reports/guard-trial]
    python bench/guard_trial.py --notebook KEY --data CHECKOUT [--out ...]

The notebook is one of wesm/pydata-book's from notebook_clean.jsonl (ch05, ch07, ch10), or one read
from its file in a checkout of its repository (`--data`: ageron/handson-ml2 and -ml3,
jakevdp/PythonDataScienceHandbook and -WhirlwindTourOfPython, amueller/introduction_to_ml_with_python), KEY
any other key of TRIALS (`--help` lists them). Each table's comment says which notebook it is, what it
covers and how it was written: most before any run of the guard, from the notebook's sources alone, by
helpers who read nothing of the checker (held out until their first run); FROM_FILE's comments say
which cells fail natively, are skipped or read a file from the checkout.

Each mistake is a copy of one of its cells with one slip a user makes (a misspelt column,
row label, attribute, keyword or name, an API pandas 2/3 removed, an input scikit-learn's checks
refuse), run just before that cell.
Reported per mistake: whether it crashed in the plain kernel, whether the guard stopped it, or
showed an error before it ran without stopping it; and whether every cell of the notebook itself ran as in the plain kernel (a
wrong stop: the guard stopped a cell the plain kernel ran).
The last stdout line is one JSON object; report.md, trial.jsonl and command.txt go to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from auto_mode_cost import Kernel
from notebook_shell import BENCH, OPENING, ROOT, notebooks
from requirements import require

# (the notebook cell it is typed before, the mistaken cell): one slip each
CH05 = [
    (19, "frame.heda()"),
    (23, 'frame2["sate"]'),
    (28, 'del frame2["eastren"]'),
    (30, "frame3 = pd.DataFrame(populatons)\nframe3"),
    (36, "frame2.to_numpy(dtyp=float)"),
    (42, 'obj2 = obj.reindex(["a", "b", "c", "d", "e"], methd="ffill")\nobj2'),
    (45, 'states = ["Texas", "Utah", "California"]\nframe.reindex(colums=states)'),
    (50, 'data.drop(index=["Colorado", "Ohoi"])'),
    (51, 'data.drop(columns=["tow"])'),
    (60, 'data[:2]\ndata[data["thre"] > 5]'),
    (63, 'data\ndata.loc["Colorodo"]'),
    (65, 'data.loc["Colorado", ["two", "thre"]]'),
    (71, 'ser3 = pd.Series(np.arange(3.), index=["a", "b", "c"])\nser3.iloc[-1]\nser3.ilco[0]'),
    (79, "s1.append(s2)"),
    (82, "df1.applymap(lambda x: x * 2)"),
    (85, "df1.add(df2, fill_valu=0)"),
    (88, "for column, values in df1.iteritems():\n    print(column)"),
]
CH10 = [
    (4, "grouped.maen()"),
    (5, 'means = df["data1"].groupby([df["key1"], df["kye2"]]).mean()\nmeans'),
    (8, 'df.groupby("key3").mean()'),
    (9, 'df.groupby(["key1", "key2"]).szie()'),
    (11, 'df.groupby("key1").count(numeric_onl=True)'),
    (14, 'pieces = {name: group for name, group in df.groupby("key1")}\npieces["c"]'),
    (17, 'df.groupby(["key1", "key2"])[["dat2"]].mean()'),
    (18, 's_grouped = df.groupby(["key1", "key2"])["data2"]\ns_grouped.mena()'),
    (23, "people.groupby(len).summ()"),
    (27, 'grouped = df.groupby("key1")\ngrouped["dtaa1"].nsmallest(2)'),
    (29, "grouped.describ()"),
    (50, "s = pd.Series(np.random.standard_normal(6))\ns.fillna(s.mena())"),
    (56, "deck.haed(13)"),
    (61, 'grouped = df.groupby("category")\ngrouped.apply(get_wavgg)'),
]
# written down before any run, after ch05's and ch10's misses had led to rules (held out from them)
CH07 = [
    (5, 'data = pd.Series([1, np.nan, 3.5, np.nan, 7])\ndata.dropna(how="al")'),
    (9, 'data[4] = np.nan\ndata.dropna(axis="colums", how="all")'),
    (11, "df.fillna(valeu=0)"),
    (14, "data.fillna(data.maen())"),
    (17, "data.drop_duplicate()"),
    (19, 'data.drop_duplicates(["k1", "k3"], keep="last")'),
    (22, 'data["animal"] = data["fod"].map(meat_to_animal)\ndata'),
    (32, "data.rename(index=str.title, colums=str.upper)"),
    (36, "age_categories.categoies"),
    (43, "col = data[5]\ncol[col.abs() > 3]"),
    (49, 'df.take(column_sampler, axis="column")'),
    (52, 'pd.get_dummies(df["kye"], dtype=float)'),
    (53, 'dummies = pd.get_dummies(df["key"], prefix="key", dtype=float)\ndf_with_dummy = df[["data"]].join(dummies)'),
    (85, 'data.str.contain("gmail")'),
    (97, "c.categorys"),
    (115, "cat_s.cat.code"),
    (116, "cat_s2 = cat_s.cat.set_categories(actual_categories, inplace=True)"),
]
# ageron/handson-ml2's chapter 2 (the end-to-end housing project: pandas into scikit-learn),
# written down before any run of it, after the scikit-learn input rules of issue 50 had been
# added (held out from them); indices count its code cells from 0
HOML2_CH02 = [
    (6, 'housing["ocean_proximty"].value_counts()', "misspelt column"),
    (22, 'housing["income_cat"] = pd.cut(housing["median_income"],\n'
         '                               bins=[0., 1.5, 3.0, 4.5, 6., np.inf],\n'
         '                               labels=[1, 2, 3, 4])', "pandas: label count"),
    (25, "from sklearn.model_selection import StratifiedShuffleSplit\n\n"
         "split = StratifiedShuffleSplit(n_splits=1, test_sise=0.2, random_state=42)\n"
         'for train_index, test_index in split.split(housing, housing["income_cat"]):\n'
         "    strat_train_set = housing.loc[train_index]\n    strat_test_set = housing.loc[test_index]",
         "misspelt keyword"),
    (30, 'for set_ in (strat_train_set, strat_test_set):\n    set_.drop("income_cat", inplace=True)',
         "pandas: a column dropped as a row"),
    (53, "imputer.fit(housing)", "text column into a model"),
    (57, "housing_tr = pd.DataFrame(X, columns=housing.columns,\n                          index=housing.index)",
         "pandas: width of the labels"),
    (63, "from sklearn.preprocessing import OrdinalEncoder\n\nordinal_encoder = OrdinalEncoder()\n"
         'housing_cat_encoded = ordinal_encoder.fit_transform(housing["ocean_proximity"])\n'
         "housing_cat_encoded[:10]", "1-D X"),
    (64, 'ordinal_encoder.transform([["NEAR_OCEAN"]])', "label the encoder never saw"),
    (65, "from sklearn.preprocessing import OneHotEncoder\n\ncat_encoder = OneHotEncoder(handle_unknow=\"ignore\")\n"
         "housing_cat_1hot = cat_encoder.fit_transform(housing_cat)\nhousing_cat_1hot", "misspelt keyword"),
    (74, "from sklearn.compose import ColumnTransformer\n\nnum_attribs = list(housing_num)\n"
         'cat_attribs = ["ocean_proximty"]\n\nfull_pipeline = ColumnTransformer([\n'
         '        ("num", num_pipeline, num_attribs),\n        ("cat", OneHotEncoder(), cat_attribs),\n    ])\n\n'
         "housing_prepared = full_pipeline.fit_transform(housing)", "misspelt column"),
    (82, "from sklearn.linear_model import LinearRegression\n\nlin_reg = LinearRegression()\n"
         'lin_reg.fit(housing_prepared, strat_test_set["median_house_value"])', "X and y of different lengths"),
    (82, "from sklearn.linear_model import LinearRegression\n\nlin_reg = LinearRegression()\n"
         'lin_reg.fit(housing["median_income"], housing_labels)', "1-D X"),
    (83, "# let's try the full preprocessing pipeline on a few training instances\n"
         "some_data = housing.iloc[:5]\nsome_labels = housing_labels.iloc[:5]\n"
         "some_data_prepared = full_pipeline.transform(some_data)\n\n"
         'print("Predictions:", lin_reg.predict(some_data))', "raw frame to a model fitted on the prepared array"),
    (84, 'print("Predictions:", lin_reg.predict([[-121.46, 38.52, 29.0, 3873.0, 797.0, 2237.0, 706.0, 2.1736]]))',
         "literal of the wrong width to predict"),
    (86, "from sklearn.metrics import mean_squared_error\n\n"
         "housing_predictions = lin_reg.predict(housing_prepared)\n"
         "lin_mse = mean_squared_error(some_labels, housing_predictions)\nlin_rmse = np.sqrt(lin_mse)\nlin_rmse",
         "metric of two lengths"),
    (88, "from sklearn.tree import DecisionTreeRegressor\n\ntree_reg = DecisionTreeRegressor(random_state=42)\n"
         "tree_reg.fit(housing, housing_labels)", "text column into a model"),
    (90, "from sklearn.model_selection import cross_val_score\n\n"
         "scores = cross_val_score(tree_reg, housing_prepared, housing_labels,\n"
         '                         scoring="neg_mean_squared_eror", cv=10)\ntree_rmse_scores = np.sqrt(-scores)',
         "misspelt scoring name"),
    (93, "from sklearn.ensemble import RandomForestRegressor\n\n"
         "forest_reg = RandomForestRegressor(n_estimator=100, random_state=42)\n"
         "forest_reg.fit(housing_prepared, housing_labels)", "misspelt keyword"),
    (105, "feature_importances = grid_search.best_estimator_.feature_importance_\nfeature_importances",
          "misspelt attribute"),
    (112, 'full_pipeline_with_predictor = Pipeline([\n        ("preparation", full_pipeline),\n'
          '        ("linear", LinearRegression())\n    ])\n\n'
          "full_pipeline_with_predictor.fit(housing, housing_labels)\n"
          "full_pipeline_with_predictor.predict(some_data_prepared)",
          "array to a pipeline that selects columns by name"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.03 (model validation on iris and a made
# curve) and 05.04 (feature engineering on literals): written down before any run of either,
# after matplotlib's settings by name (facts/matplotlib_rc.py) had been added; code cells from 0
PDSH_0503 = [
    (2, "model.fit(X, y)\ny_model = model.predcit(X)", "misspelt method"),
    (3, "from sklearn.metrics import accuracy_score\naccuracy_score(y, y_model[:100])", "metric of two lengths"),
    (4, "X1, X2, y1, y2 = train_test_split(X, y, random_state=0,\n                                  train_size=0.5)",
     "import forgotten"),
    (6, "from sklearn.model_selection import cross_val_score\ncross_val_score(model, X, y, cv=5, scoring='acuracy')",
     "misspelt scoring name"),
    (8, "scores.maen()", "misspelt method"),
    (11, "X, y = make_data(40, eror=1.0)", "misspelt keyword of the notebook's function"),
    (12, "from sklearn.model_selection import validation_curve\ndegree = np.arange(0, 21)\n"
         "train_score, val_score = validation_curve(\n    PolynomialRegression(), X, y,\n"
         "    param_name='polynomialfeatures__degre',\n    param_range=degree, cv=7)", "misspelt parameter name"),
    (13, "plt.scatter(X.ravel(), y, colour='black')", "matplotlib: misspelt property"),
    (17, "grid = GridSearchCV(PolynomialRegression(), {'polynomialfeatures__degree': np.arange(21),\n"
         "                    'linearregression__fit_intercpt': [True, False]}, cv=7)\ngrid.fit(X, y)",
     "misspelt parameter name"),
    (19, "grid.best_params", "misspelt attribute"),
    (20, "plt.plot(X_test.ravel(), y_test, linestyle='dashd')", "matplotlib: misspelt value"),
]
PDSH_0504 = [
    (3, "vec.get_feature_names()", "an API scikit-learn 1.2 removed"),
    (4, "vec = DictVectorizer(sparce=True, dtype=int)", "misspelt keyword"),
    (6, "vec = CountVectorizer()\nX = vec.fit_transform(sample[0])", "one text where a list of texts goes"),
    (8, "pd.DataFrame(X.toarray(), colums=vec.get_feature_names_out())", "misspelt keyword"),
    (10, "model = LinearRegression().fit(x, y)", "1-D X"),
    (12, "model = LinearRegression().fit(X2, y[:4])", "X and y of different lengths"),
    (14, "imp = SimpleImputer(strategy='meen')\nX2 = imp.fit_transform(X)", "misspelt parameter value"),
    (15, "model = LinearRegression().fit(X, y)", "missing values into a model that refuses them"),
    (17, "model.fit(X, y)\nmodel.predict(X[:, :2])", "X of another width to predict"),
    (17, "model.fit(X, y)\nmodel.named_steps['simpleimputr']", "misspelt step name"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.02 (scikit-learn's estimator API: iris in a DataFrame and
# seaborn's pairplot, the features matrix and target array, a LinearRegression fitted on a numpy-made line with a
# column made by np.newaxis, its coef_ and intercept_, predictions on a linspace, train_test_split and GaussianNB's
# accuracy on iris, PCA to two dimensions and a GaussianMixture's clusters shown with lmplot, then the digits: their
# images in a grid of subplots, an Isomap projection, GaussianNB's accuracy and confusion matrix as a heatmap):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0502 = [
    (1, "%matplotlib inline\nimport seaborn as sns\nsns.pairplot(iris, hue='Species', height=1.5);",
     "the hue column's name capitalised"),
    (2, "X_iris = iris.drop('species')\nX_iris.shape", "the column dropped without axis=1"),
    (4, ("import matplotlib.pyplot as plt\nimport numpy as np\n\nrng = np.random.RandomState(42)\n"
         "x = 10 * rng.rand(50)\ny = 2 * x - 1 + rng.randn(500)\nplt.scatter(x, y);"),
     "noise of 500 values for 50 points"),
    (6, "model = LinearRegression(normalize=True)\nmodel", "LinearRegression's normalize, removed in scikit-learn 1.2"),
    (7, "X = x[np.newaxis, :]\nX.shape", "the new axis put first (runs: one row of 50 features)"),
    (8, "model.fit(x, y)", "the 1-D x, not the column matrix X"),
    (11, "xfit = np.linspace(-1, 11, 0.1)", "a step given as linspace's number of points"),
    (13, "plt.scatter(x, y)\nplt.plot(xfit, y);", "the data's y plotted for the fit (runs)"),
    (14, ("from sklearn.model_selection import train_test_split\n"
          "Xtrain, Xtest, ytrain, ytest = train_test_split(X_iris, y_iris,\n"
          "                                                random_sate=1)"), "misspelt keyword"),
    (15, ("from sklearn.naive_bayes import GaussianNB # 1. choose model class\n"
          "model = GaussianNB()                       # 2. instantiate model\n"
          "model.fit(Xtrain, ytest)                   # 3. fit model to data\n"
          "y_model = model.predict(Xtest)             # 4. predict on new data"),
     "the test labels fitted with the training features"),
    (17, ("from sklearn.decomposition import PCA  # 1. Choose the model class\n"
          "model = PCA(n_components=5)            # 2. Instantiate the model\n"
          "model.fit(X_iris)                      # 3. Fit to data\n"
          "X_2D = model.transform(X_iris)         # 4. Transform the data"),
     "more components than iris has features"),
    (18, ("iris['PCA1'] = X_2D[:, 0]\niris['PCA2'] = X_2D[:, 1]\n"
          "sns.lmplot(\"PCA1\", \"PCA2\", hue='species', data=iris, fit_reg=False);"),
     "x and y given by position, keyword-only since seaborn 0.12"),
    (22, ("import matplotlib.pyplot as plt\n\nfig, axes = plt.subplots(10, 10, figsize=(8, 8),\n"
          "                         subplot_kw={'xticks':[], 'yticks':[]},\n"
          "                         gridspec_kw=dict(hspace=0.1, wspace=0.1))\n\n"
          "for i, ax in enumerate(axes.flat):\n"
          "    ax.imshow(digits.data[i], cmap='binary', interpolation='nearest')\n"
          "    ax.text(0.05, 0.05, str(digits.target[i]),\n"
          "            transform=ax.transAxes, color='green')"),
     "the flat data row shown as an image, not digits.images"),
    (23, "X = digits.images\nX.shape", "the 8 x 8 images for the flat data (runs)"),
    (27, "Xtrain, Xtest, ytrain, ytest = train_test_split(X, random_state=0)", "y left out of the split"),
    (28, ("from sklearn.naive_bayes import GaussianNB\nmodel = GaussianNB()\n"
          "y_model = model.predict(Xtest)"), "the fit step forgotten"),
    (30, ("from sklearn.metrics import confusion_matrix\n\nmat = confusion_matrix(ytest, y_model)\n\n"
          "sns.heatmap(mat, square=True, annot=True, cbar=False, cmap='blues')\n"
          "plt.xlabel('predicted value')\nplt.ylabel('true value');"), "colormap's name in lower case"),
    (31, ("fig, axes = plt.subplots(10, 10, figsize=(8, 8),\n"
          "                         subplot_kw={'xticks':[], 'yticks':[]},\n"
          "                         gridspec_kw=dict(hspace=0.1, wspace=0.1))\n\n"
          "test_images = Xtest.reshape(8, 8)\n\n"
          "for i, ax in enumerate(axes.flat):\n"
          "    ax.imshow(test_images[i], cmap='binary', interpolation='nearest')\n"
          "    ax.text(0.05, 0.05, str(y_model[i]),\n"
          "            transform=ax.transAxes,\n"
          "            color='green' if (ytest[i] == y_model[i]) else 'red')"),
     "the reshape without its -1 for the number of images"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.05 (naive Bayes: two make_blobs clusters plotted with a
# colormap, a GaussianNB fitted on them, new points drawn uniformly from a seeded RandomState and classified, the
# decision regions shown by a transparent scatter inside the kept axis limits, and predict_proba's posterior
# probabilities rounded; its 20 newsgroups cells are not run): written down before any run of the guard, from the
# notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0505 = [
    (0, ("%matplotlib inline\nimport numpy as np\nimport matplotlib.pylot as plt\nimport seaborn as sns\n"
         "plt.style.use('seaborn-whitegrid')"), "misspelt module"),
    (1, ("from sklearn.datasets import make_blobs\n"
         "X, y = make_blobs(100, 2, centres=2, random_state=2, cluster_std=1.5)\n"
         "plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='RdBu');"), "misspelt keyword"),
    (1, ("from sklearn.datasets import make_blobs\n"
         "X = make_blobs(100, 2, centers=2, random_state=2, cluster_std=1.5)\n"
         "plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='RdBu');"), "make_blobs' (X, y) pair not unpacked"),
    (2, "from sklearn.naive_bayes import GaussianNB\nmodel = GaussianNB\nmodel.fit(X, y);",
     "the class not instantiated"),
    (2, "from sklearn.naive_bayes import GaussianNB\nmodel = GaussianNB()\nmodel.fit(X);", "the labels left out of fit"),
    (3, ("rng = np.random.RandomState(0)\nXnew = [-6, -14] + [14, 18] * rng.rand((2000, 2))\n"
         "ynew = model.predict(Xnew)"), "the shape passed to rand as a tuple"),
    (3, ("rng = np.random.RandomState(0)\nXnew = [-6, -14] + [14, 18] * rng.rand(2000, 2)\n"
         "ynew = model.predict(Xnew[0])"), "one point, a 1-D array, to predict"),
    (3, ("rng = np.random.RandomState()\nXnew = [-6, -14] + [14, 18] * rng.rand(2000, 2)\n"
         "ynew = model.predict(Xnew)"), "the seed left out (runs: other points each run)"),
    (4, ("plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='RdBu')\nlim = plt.axis()\n"
         "plt.scatter(Xnew[:, 0], Xnew[:, 1], c=ynew, s=20, cmap='RdBu', alpha=10)\nplt.axis(lim);"),
     "an alpha of 10 for 0.1"),
    (4, ("plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='RdBu')\nlim = plt.axis()\n"
         "plt.scatter(Xnew[:, 0], Xnew[:, 1], c=y, s=20, cmap='RdBu', alpha=0.1)\nplt.axis(lim);"),
     "the training labels as the new points' colours"),
    (4, ("plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='RdBu')\nlim = plt.axis()\n"
         "plt.scatter(Xnew[:, 0], Xnew[:, 1], c=ynew, s=20, cmap='RdBu', alpha=0.1)\nplt.axis(*lim);"),
     "the limits unpacked into axis"),
    (4, ("plt.scatter(X[:, 0], X[:, 0], c=y, s=50, cmap='RdBu')\nlim = plt.axis()\n"
         "plt.scatter(Xnew[:, 0], Xnew[:, 1], c=ynew, s=20, cmap='RdBu', alpha=0.1)\nplt.axis(lim);"),
     "the first column plotted twice (runs)"),
    (5, "yprob = model.predict_prob(Xnew)\nyprob[-8:].round(2)", "misspelt method"),
    (5, "yprob = model.predict_proba(Xnew)\nround(yprob[-8:], 2)", "Python's round on an array"),
    (5, "yprob = model.predict_proba(Xnew)\nyprob[:-8].round(2)", "the slice's colon on the wrong side (runs)"),
]
# amueller/introduction_to_ml_with_python's chapter 4 (representing data and engineering features: the adult census
# CSV one-hot encoded with get_dummies, OneHotEncoder and a ColumnTransformer into LogisticRegression, make_wave binned
# with KBinsDiscretizer and combined with products and polynomials for linear regression, a decision tree and SVR, a
# log transform of Poisson counts for Ridge, univariate, model-based and iterative feature selection on the breast
# cancer data with noise features, and the Citi Bike rentals' time, hour and weekday features, one-hot encoded and
# interacted, for a random forest, LinearRegression and Ridge): written down before any run of the guard, from the
# notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
IMLP_04 = [
    (5, ("features = data_dummies.loc[:, 'age':'occupation_Transport-moving']\n# Extract NumPy arrays\n"
         "X = features.values\ny = data_dummies['income_ >50K'].values\n"
         'print("X.shape: {}  y.shape: {}".format(X.shape, y.shape))'),
     "a column label without the space its value begins with"),
    (6, ("from sklearn.linear_model import LogisticRegression\n"
         "from sklearn.model_selection import train_test_split\n"
         "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
         "logreg = LogisticRegression()\nlogreg.fit(X_train, y_test)\n"
         'print("Test score: {:.2f}".format(logreg.score(X_test, y_test)))'),
     "X and y of different lengths (the test labels)"),
    (14, ("from sklearn.linear_model import LogisticRegression\n"
          "from sklearn.model_selection import train_test_split\n"
          '# get all columns apart from income for the features\ndata_features = data.drop("income")\n'
          "# split dataframe and income\nX_train, X_test, y_train, y_test = train_test_split(\n"
          "    data_features, data.income, random_state=0)\n\nct.fit(X_train)\n"
          "X_train_trans = ct.transform(X_train)\nprint(X_train_trans.shape)"),
     "pandas: a column dropped as a row (axis left out)"),
    (15, ("logreg = LogisticRegression(max_iter=1000)\nlogreg.fit(X_train, y_train)\n\n"
          "X_test_trans = ct.transform(X_test)\n"
          'print("Test score: {:.2f}".format(logreg.score(X_test_trans, y_test)))'),
     "the untransformed frame, string columns, into a numeric model"),
    (18, ("from sklearn.linear_model import LinearRegression\n"
          "from sklearn.tree import DecisionTreeRegressor\n\n"
          "X, y = mglearn.datasets.make_wave(n_samples=120)\n"
          "line = np.linspace(-3, 3, 1000, endpoint=False)\n\n"
          "reg = DecisionTreeRegressor(min_samples_leaf=3).fit(X, y)\n"
          'plt.plot(line, reg.predict(line), label="decision tree")\n\nreg = LinearRegression().fit(X, y)\n'
          'plt.plot(line, reg.predict(line), label="linear regression")\n\n'
          'plt.plot(X[:, 0], y, \'o\', c=\'k\')\nplt.ylabel("Regression output")\n'
          'plt.xlabel("Input feature")\nplt.legend(loc="best")'),
     "1-D X to predict (the reshape left out)"),
    (23, ("kb = KBinsDiscretizer(n_bins=10, strategy='uniform', encode='onehot_dense')\nkb.fit(X)\n"
          "X_binned = kb.transform(X)"),
     "misspelt parameter value"),
    (41, 'print("Number of feature appearances:\\n{}".format(np.bincount(X)))', "a 2-D array to bincount"),
    (44, ("X_train_log = np.log(X_train)\nX_test_log = np.log(X_test + 1)"),
     "the + 1 left out: log of the zero counts (runs)"),
    (46, ("score = Ridge().fit(X_train_log, y_train).score(X_test, y_test)\n"
          'print("Test score: {:.3f}".format(score))'),
     "the test set scored untransformed (runs)"),
    (48, ("mask = select.get_support()\nprint(mask)\n# visualize the mask. black is True, white is False\n"
          'plt.matshow(mask, cmap=\'gray_r\')\nplt.xlabel("Sample index")\nplt.yticks(())'),
     "a 1-D mask as an image (the reshape left out)"),
    (54, ("from sklearn.feature_selection import RFE\nselect = RFE(RandomForestClassifier,\n"
          "             n_features_to_select=40)\n\nselect.fit(X_train, y_train)\n"
          "# visualize the selected features:\nmask = select.get_support()\n"
          'plt.matshow(mask.reshape(1, -1), cmap=\'gray_r\')\nplt.xlabel("Sample index")\nplt.yticks(())'),
     "the estimator class, not an instance"),
    (62, ("from sklearn.ensemble import RandomForestRegressor\n"
          "regressor = RandomForestRegressor(n_estimators=100, random_state=0)\n"
          "eval_on_features(y, X, regressor)"),
     "features and target swapped"),
    (64, ("X_hour_week = np.hstack([citibike.index.day.values.reshape(-1, 1),\n"
          "                         citibike.index.hour.values.reshape(-1, 1)])\n"
          "eval_on_features(X_hour_week, y, regressor)"),
     "day of the month for day of the week (runs)"),
    (66, ("enc = OneHotEncoder(sparse=False)\nX_hour_week_onehot = enc.fit_transform(X_hour_week).toarray()"),
     "scikit-learn: a keyword removed in 1.4 (sparse_output)"),
    (69, ('hour = ["%02d:00" % i for i in range(0, 24, 3)]\n'
          'day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]\nfeatures =  hour + day'),
     "the name lists joined in the wrong order (runs)"),
    (71, ("plt.figure(figsize=(15, 2))\nplt.plot(coef_nonzero, 'o')\n"
          "plt.xticks(np.arange(len(coef_nonzero) + 1), features_nonzero, rotation=90)\n"
          'plt.xlabel("Feature name")\nplt.ylabel("Feature magnitude")'),
     "one tick more than labels"),
]
# ageron/handson-ml3's chapter 4 (linear models: numpy-made data, scikit-learn's linear models,
# matplotlib's plots, iris from scikit-learn's bundled data): written down before any run of it,
# from the notebook's sources alone (held out); code cells from 0
HOML3_CH04 = [
    (6, "from sklearn.preprocessing import add_dummy_feature\n\n"
        "X_b = add_dummy_feature(X)  # add x0 = 1 to each instance\n"
        "theta_best = np.linalg.inv(X_b.T @ X_b) @ X_b @ y", "a transpose forgotten in the normal equation"),
    (10, "from sklearn.linear_model import LinearRegression\n\nlin_reg = LinearRegression(fit_intercep=False)\n"
         "lin_reg.fit(X, y)\nlin_reg.intercept_, lin_reg.coef_", "misspelt keyword"),
    (11, "lin_reg.predcit(X_new)", "misspelt method"),
    (11, "lin_reg.predict(X_new[:, 0])", "1-D X to predict"),
    (12, "theta_best_svd, residuals, rank, s = np.linalg.lstsq(X_b, y[:-1], rcond=1e-6)\ntheta_best_svd",
     "X and y of different lengths"),
    (14, "eta = 0.1  # learning rate\nn_epochs = 1000\nm = len(X_b)  # number of instances\n\n"
         "np.random.seed(42)\ntheta = np.random.randn(2, 1)  # randomly initialized model parameters\n\n"
         "for epoch in range(n_epochs):\n    gradients = 2 / m * X_b @ (X_b @ theta - y)\n"
         "    theta = theta - eta * gradients", "a transpose forgotten in the gradient"),
    (20, "from sklearn.linear_model import SGDRegressor\n\n"
         "sgd_reg = SGDRegressor(max_iter=1000, tol=1e-5, penalty=None, eta0=0.01,\n"
         "                       n_iter_no_change=100, random_state=42)\n"
         "sgd_reg.fit(X.ravel(), y)", "1-D X (the ravel on the wrong array)"),
    (27, "lin_reg = LinearRegression()\nlin_reg.intercept_, lin_reg.coef_", "attributes read before fit"),
    (28, "X_new = np.linspace(-3, 3, 100).reshape(100, 1)\nX_new_poly = poly_features.transform(X_new)\n"
         "y_new = lin_reg.predict(X_new)", "X of another width to predict (the features not made)"),
    (28, "X_new = np.linspace(-3, 3, 100).reshape(100, 1)\nX_new_poly = poly_features.transform(X_new)\n"
         "y_new = lin_reg.predict(X_new_poly)\n\nplt.figure(figsize=(6, 4))\nplt.plot(X, y, \"b.\")\n"
         "plt.plot(X_new, y_new, \"r-\", linewidht=2, label=\"Predictions\")\n"
         "plt.xlabel(\"$x_1$\")\nplt.ylabel(\"$y$\", rotation=0)\nplt.legend(loc=\"upper left\")\n"
         "plt.axis([-3, 3, 0, 10])\nplt.grid()\nplt.show()", "matplotlib: misspelt keyword"),
    (30, "from sklearn.model_selection import learning_curve\n\n"
         "train_sizes, train_scores, valid_scores = learning_curve(\n"
         "    LinearRegression(), X, y, train_sizes=np.linspace(0.01, 1.0, 40), cv=5,\n"
         "    scoring=\"neg_root_mean_square_error\")", "misspelt scoring name"),
    (35, "from sklearn.linear_model import Ridge\n\nridge_reg = Ridge(alpha=0.1, solver=\"choleski\")\n"
         "ridge_reg.fit(X, y)\nridge_reg.predict([[1.5]])", "misspelt parameter value"),
    (37, "sgd_reg = SGDRegressor(penalty=\"l2\", alpha=0.1 / m, tol=None,\n"
         "                       max_iter=1000, eta0=0.01, random_state=42)\nsgd_reg.predict([[1.5]])",
     "predict before fit (the fit line left out)"),
    (39, "alpha = 0.1\nA = np.array([[0., 0.], [0., 1.]])\nX_b = np.c_[np.ones(100), X]\n"
         "np.linalg.inv(X_b.T @ X_b + alpha * A) @ X_b.T @ y", "a column of ones of the old length"),
    (41, "from sklearn.linear_model import Lasso\n\nlasso_reg = Lasso(alpha=0.1, solver=\"cholesky\")\n"
         "lasso_reg.fit(X, y)\nlasso_reg.predict([[1.5]])", "a keyword the estimator lacks (Ridge's)"),
    (51, "iris.targets.head(3)", "misspelt attribute"),
    (53, "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n\n"
         "X = iris.data[[\"petal width(cm)\"]].values\ny = iris.target_names[iris.target] == 'virginica'\n"
         "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=42)\n\n"
         "log_reg = LogisticRegression(random_state=42)\nlog_reg.fit(X_train, y_train)", "misspelt column"),
    (56, "log_reg.predict([[\"1.7\"], [\"1.5\"]])", "strings into a numeric estimator"),
    (63, "X_with_bias = np.c_[np.ones(len(X)), x]", "misspelt name"),
    (69, "mean = X_train[:, 1:].mean(axis=1)\nstd = X_train[:, 1:].std(axis=0)\n"
         "X_train[:, 1:] = (X_train[:, 1:] - mean) / std\nX_valid[:, 1:] = (X_valid[:, 1:] - mean) / std\n"
         "X_test[:, 1:] = (X_test[:, 1:] - mean) / std", "wrong axis"),
]
# amueller/introduction_to_ml_with_python's chapter 5 (model evaluation and improvement: make_blobs and
# scikit-learn's bundled iris and digits into cross_val_score, cross_validate and the KFold, ShuffleSplit and
# GroupKFold splitters, a hand-written and a GridSearchCV search of an SVC's C and gamma, nested cross-validation,
# a DummyClassifier, confusion matrices, f1 scores and classification reports, precision-recall and ROC curves
# of an SVC and a random forest, AUC): written down before any run of the guard, from the notebook's sources
# alone (held out; checked in a plain kernel only); code cells from 0
IMLP_05 = [
    (1, ("from sklearn.datasets import make_blobs\nfrom sklearn.linear_model import LogisticRegression\n"
         "from sklearn.model_selection import train_test_split\n\n# create a synthetic dataset\n"
         "X, y = make_blobs(random_state=0)\n# split data and labels into a training and a test set\n"
         "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
         "# instantiate a model and fit it to the training set\n"
         "logreg = LogisticRegression().fit(X_train, y_test)\n# evaluate the model on the test set\n"
         "print(\"Test set score: {:.2f}\".format(logreg.score(X_test, y_test)))"),
     "X and y of different lengths (the test labels)"),
    (6, ("from sklearn.model_selection import cross_validate\n"
         "res = cross_validate(logreg, iris.data, iris.target, cv=5,\n"
         "                     return_train_scores=True)\ndisplay(res)"),
     "misspelt keyword"),
    (10, "from sklearn.model_selection import KFold\nkfold = KFold(n_splits=5, random_state=0)",
     "a random_state without shuffle"),
    (16, ("from sklearn.model_selection import ShuffleSplit\n"
          "shuffle_split = ShuffleSplit(test_size=.5, train_size=.6, n_splits=10)\n"
          "scores = cross_val_score(logreg, iris.data, iris.target, cv=shuffle_split)\n"
          "print(\"Cross-validation scores:\\n{}\".format(scores))"),
     "train and test sizes over the whole set"),
    (18, ("from sklearn.model_selection import GroupKFold\n# create synthetic dataset\n"
          "X, y = make_blobs(n_samples=12, random_state=0)\n"
          "# assume the first three samples belong to the same group,\n# then the next four, etc.\n"
          "groups = [0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3]\n"
          "scores = cross_val_score(logreg, X, y, groups=groups, cv=GroupKFold(n_splits=3))\n"
          "print(\"Cross-validation scores:\\n{}\".format(scores))"),
     "one group label short of the samples"),
    (19, ("# naive grid search implementation\nfrom sklearn.svm import SVC\n"
          "X_train, X_test, y_train, y_test = train_test_split(\n    iris.data, iris.target, random_state=0)\n"
          "print(\"Size of training set: {}   size of test set: {}\".format(\n"
          "      X_train.shape[0], X_test.shape[0]))\n\nbest_score = 0\n\n"
          "for gamma in [0.001, 0.01, 0.1, 1, 10, 100]:\n    for C in [0.001, 0.01, 0.1, 1, 10, 100]:\n"
          "        # for each combination of parameters, train an SVC\n        svm = SVC(gamma=gamma, C=C)\n"
          "        svm.fit(X_train, y_train)\n        # evaluate the SVC on the test set\n"
          "        score = svm.score(X_train, y_train)\n"
          "        # if we got a better score, store the score and parameters\n        if score > best_score:\n"
          "            best_score = score\n            best_parameters = {'C': C, 'gamma': gamma}\n\n"
          "print(\"Best score: {:.2f}\".format(best_score))\n"
          "print(\"Best parameters: {}\".format(best_parameters))"),
     "scored on the training set (runs)"),
    (21, ("from sklearn.svm import SVC\n# split data into train+validation set and test set\n"
          "X_trainval, X_test, y_trainval, y_test = train_test_split(\n"
          "    iris.data, iris.target, random_state=0)\n"
          "# split train+validation set into training and validation sets\n"
          "X_train, X_valid, y_train, y_valid = train_test_split(\n    X_trainval, y_trainval, random_state=1)\n"
          "print(\"Size of training set: {}   size of validation set: {}   size of test set:\"\n"
          "      \" {}\\n\".format(X_train.shape[0], X_valid.shape[0], X_test.shape[0]))\n\nbest_score = 0\n\n"
          "for gamma in [0.001, 0.01, 0.1, 1, 10, 100]:\n    for C in [0.001, 0.01, 0.1, 1, 10, 100]:\n"
          "        # for each combination of parameters, train an SVC\n        svm = SVC(gamma=gamma, C=C)\n"
          "        svm.fit(X_train, y_train)\n        # evaluate the SVC on the validation set\n"
          "        score = svm.score(X_valid, y_valid)\n"
          "        # if we got a better score, store the score and parameters\n        if score > best_score:\n"
          "            best_score = score\n            best_parameters = {'C': C, 'gamma': gamma}\n\n"
          "# rebuild a model on the combined training and validation set,\n# and evaluate it on the test set\n"
          "svm = SVC(best_parameters)\nsvm.fit(X_trainval, y_trainval)\ntest_score = svm.score(X_test, y_test)\n"
          "print(\"Best score on validation set: {:.2f}\".format(best_score))\n"
          "print(\"Best parameters: \", best_parameters)\n"
          "print(\"Test set score with best parameters: {:.2f}\".format(test_score))"),
     "the parameters' dict passed without ** (SVC takes keywords only)"),
    (33, ("scores = np.array(results.mean_test_score).reshape(6, 5)\n\n# plot the mean cross-validation scores\n"
          "mglearn.tools.heatmap(scores, xlabel='gamma', xticklabels=param_grid['gamma'],\n"
          "                      ylabel='C', yticklabels=param_grid['C'], cmap=\"viridis\")"),
     "a shape of the wrong size"),
    (40, ("from sklearn.model_selection import ParameterGrid, StratifiedKFold\n"
          "scores = nested_cv(iris.data, iris.target, StratifiedKFold(5),\n"
          "                   StratifiedKFold(5), SVC(), ParameterGrid(param_grid))\n"
          "print(\"Cross-validation scores: {}\".format(scores))"),
     "an estimator where the class is called"),
    (42, ("from sklearn.dummy import DummyClassifier\n"
          "dummy_majority = DummyClassifier(strategy='most_frequnt').fit(X_train, y_train)\n"
          "pred_most_frequent = dummy_majority.predict(X_test)\n"
          "print(\"Unique predicted labels: {}\".format(np.unique(pred_most_frequent)))\n"
          "print(\"Test score: {:.2f}\".format(dummy_majority.score(X_test, y_test)))"),
     "misspelt parameter value"),
    (45, ("from sklearn.metrics import confusion_matrix\n\nconfusion = confusion_matrix(pred_logreg, y_test)\n"
          "print(\"Confusion matrix:\\n{}\".format(confusion))"),
     "true and predicted labels swapped (runs: the matrix transposed)"),
    (49, ("from sklearn.metrics import f1_score\nprint(\"f1 score most frequent: {:.2f}\".format(\n"
          "    f1_score(y_test, pred_most_frequent)))\n"
          "print(\"f1 score dummy: {:.2f}\".format(f1_score(y_test, pred_dummy)))\n"
          "print(\"f1 score tree: {:.2f}\".format(f1_score(y_test, pred_tree, pos_label=9)))\n"
          "print(\"f1 score logistic regression: {:.2f}\".format(\n    f1_score(y_test, pred_logreg)))"),
     "a positive label the boolean target lacks"),
    (56, "y_pred_lower_threshold = svc.predict(X_test) > -.8",
     "the predictions thresholded for the decision function (runs: all True)"),
    (60, ("from sklearn.ensemble import RandomForestClassifier\n\n"
          "rf = RandomForestClassifier(n_estimators=100, random_state=0, max_features=2)\n"
          "rf.fit(X_train, y_train)\n\n# RandomForestClassifier has predict_proba, but not decision_function\n"
          "precision_rf, recall_rf, thresholds_rf = precision_recall_curve(\n"
          "    y_test, rf.predict_proba(X_test)[:, 2])\n\nplt.plot(precision, recall, label=\"svc\")\n\n"
          "plt.plot(precision[close_zero], recall[close_zero], 'o', markersize=10,\n"
          "         label=\"threshold zero svc\", fillstyle=\"none\", c='k', mew=2)\n\n"
          "plt.plot(precision_rf, recall_rf, label=\"rf\")\n\n"
          "close_default_rf = np.argmin(np.abs(thresholds_rf - 0.5))\n"
          "plt.plot(precision_rf[close_default_rf], recall_rf[close_default_rf], '^', c='k',\n"
          "         markersize=10, label=\"threshold 0.5 rf\", fillstyle=\"none\", mew=2)\n"
          "plt.xlabel(\"Precision\")\nplt.ylabel(\"Recall\")\nplt.legend(loc=\"best\")"),
     "off-by-one column of two"),
    (63, ("from sklearn.metrics import roc_curve\n"
          "fpr, tpr, thresholds = roc_curve(y_test, svc.decision_function(X_test))\n\n"
          "plt.plot(fpr, tpr, label=\"ROC Curve\")\nplt.xlabel(\"FPR\")\nplt.ylabel(\"TPR (recall)\")\n"
          "# find threshold closest to zero\nclose_zero = np.argmin(thresholds)\n"
          "plt.plot(fpr[close_zero], tpr[close_zero], 'o', markersize=10,\n"
          "         label=\"threshold zero\", fillstyle=\"none\", c='k', mew=2)\nplt.legend(loc=4)"),
     "the abs left out (runs: the lowest threshold, not the one closest to zero)"),
    (65, ("from sklearn.metrics import roc_auc_score\n"
          "rf_auc = roc_auc_score(y_test, rf.predict_proba(X_test)[:, 1])\n"
          "svc_auc = roc_auc_score(svc.decision_function(X_test), y_test)\n"
          "print(\"AUC for Random Forest: {:.3f}\".format(rf_auc))\n"
          "print(\"AUC for SVC: {:.3f}\".format(svc_auc))"),
     "scores and labels in the wrong order"),
]
# ageron/handson-ml3's chapter 5 (support vector machines: iris and make_moons into scikit-learn's
# SVMs, matplotlib's plots, wine from scikit-learn's bundled data): written down before any run of
# it, from the notebook's sources alone (held out); code cells from 0
HOML3_CH05 = [
    (4, "import matplotlib.pyplot as plt\nimport numpy as np\nfrom sklearn.svm import SVC\nfrom sklearn import datasets\n\n"
        "iris = datasets.load_iris(as_frame=True)\n"
        "X = iris.data[[\"petal length (cm)\", \"petal width(cm)\"]].values\ny = iris.target", "misspelt column"),
    (5, "from sklearn.preprocessing import StandardScaler\n\n"
        "Xs = np.array([[1, 50], [5, 20], [3, 80], [5, 60]]).astype(np.float64)\nys = np.array([0, 0, 1, 1])\n"
        "svm_clf = SVC(kernel=\"linear\", C=100).fit(Xs, ys)\n\nscaler = StandardScaler()\n"
        "X_scaled = scaler.fit_transform(Xs)\nsvm_clf_scaled = SVC(kernel=\"linear\", C=100).fit(X_scaled, y)",
     "X and y of different lengths (y for ys)"),
    (6, "X_outliers = np.array([[3.4, 1.3], [3.2, 0.8]])\ny_outliers = np.array([0, 0])\n"
        "Xo1 = np.concatenate([X, X_outliers[:1]], axis=1)\nyo1 = np.concatenate([y, y_outliers[:1]], axis=0)",
     "wrong axis"),
    (7, "import numpy as np\nfrom sklearn.datasets import load_iris\nfrom sklearn.pipeline import make_pipeline\n"
        "from sklearn.preprocessing import StandardScaler\nfrom sklearn.svm import LinearSVC\n\n"
        "iris = load_iris(as_frame=True)\nX = iris.data[[\"petal length (cm)\", \"petal width (cm)\"]].values\n"
        "y = (iris.target == 2)  # Iris virginica\n\nsvm_clf = make_pipeline(StandardScaler(),\n"
        "                        LinearSVC(C=1, dual=True, random_sate=42))\nsvm_clf.fit(X, y)", "misspelt keyword"),
    (8, "X_new = [5.5, 1.7]\nsvm_clf.predict(X_new)", "1-D X to predict"),
    (9, "svm_clf.decision_functon(X_new)", "misspelt method"),
    (9, "svm_clf.predict([[\"5.5\", \"1.7\"], [\"5.0\", \"1.5\"]])", "strings into a numeric estimator"),
    (10, "scaler = StandardScaler()\nsvm_clf1 = LinearSVC(C=1, max_iter=10_000, dual=True, random_state=42)\n"
         "scaled_svm_clf1 = make_pipeline(scaler, svm_clf1)\n\n"
         "b1 = svm_clf1.decision_function([-scaler.mean_ / scaler.scale_])\nw1 = svm_clf1.coef_[0] / scaler.scale_",
     "attributes read before fit (the fit line left out)"),
    (11, "X1D = np.linspace(-4, 4, 9).reshape(-1, 1)\nX2D = np.c_[X1D, X1D**2]\n"
         "y = np.array([0, 0, 1, 1, 1, 1, 1, 0, 0])\n\nplt.figure(figsize=(10, 3))\n\nplt.subplot(121)\n"
         "plt.grid(True)\nplt.axhline(y=0, color='k')\nplt.plot(X1D[:, 0][y==0], np.zeros(5), \"bs\")\n"
         "plt.plot(X1D[:, 0][y==1], np.zeros(4), \"g^\")", "matplotlib: x and y of different lengths"),
    (12, "from sklearn.datasets import make_moons\nfrom sklearn.preprocessing import PolynomialFeatures\n\n"
         "X, y = make_moons(n_samples=100, noise=0.15, random_state=42)\n\npolynomial_svm_clf = make_pipeline(\n"
         "    PolynomialFeatures(degre=3),\n    StandardScaler(),\n"
         "    LinearSVC(C=10, max_iter=10_000, dual=True, random_state=42)\n)\npolynomial_svm_clf.fit(X, y)",
     "misspelt keyword"),
    (14, "from sklearn.svm import SVC\n\npoly_kernel_svm_clf = make_pipeline(StandardScaler(),\n"
         "                                    SVC(kernel=\"poly\", degree=3, coef0=1, C=5))\npoly_kernel_svm_clf.fit(X)",
     "y left out of fit"),
    (17, "rbf_kernel_svm_clf = make_pipeline(StandardScaler(),\n"
         "                                   SVC(kernel=\"rfb\", gamma=5, C=0.001))\nrbf_kernel_svm_clf.fit(X, y)",
     "misspelt parameter value"),
    (19, "from sklearn.svm import LinearSVR\n\nnp.random.seed(42)\nX = 2 * np.random.rand(50, 1)\n"
         "y = 4 + 3 * X[:, 0] + np.random.randn(50)\n\nsvm_reg = make_pipeline(StandardScaler(),\n"
         "                        LinearSVR(epsilon=0.5, dual=True, random_state=42))\nsvm_reg.fit(X[:, 0], y)",
     "1-D X"),
    (20, "svm_reg2 = make_pipeline(StandardScaler(),\n"
         "                         LinearSVR(epsilon=1.2, dual=True, random_state=42))\nsvm_reg2.fit(X, y)\n\n"
         "eps_x1 = 1\neps_y_pred = svm_reg2.predict([[eps_x1, 1]])", "X of another width to predict"),
    (21, "from sklearn.svm import SVR\n\nnp.random.seed(42)\nX = 2 * np.random.rand(50, 1) - 1\n"
         "y = 0.2 + 0.1 * X[:, 0] + 0.5 * X[:, 0] ** 2 + np.random.randn(50) / 10\n\n"
         "svm_poly_reg = make_pipeline(StandardScaler(),\n"
         "                             SVR(kernel=\"poly\", degree=2, C=0.01, epsilon=0.1, random_state=42))\n"
         "svm_poly_reg.fit(X, y)", "a keyword the estimator lacks (SVC's)"),
    (22, "fig, axes = plt.subplots(ncols=2, figsize=(9, 4), sharey=True)\nplt.sca(axes[0])\n"
         "plt.title(f\"degree={svm_poly_reg[-1].degree}, \"\n          f\"C={svm_poly_reg[-1].c}, \"\n"
         "          f\"epsilon={svm_poly_reg[-1].epsilon}\")", "misspelt attribute (c for C)"),
    (28, "plt.plot(range(svm_clf.n_epochs), svm_clf.Js, linestlye=\"-\")\nplt.axis([0, svm_clf.n_epochs, 0, 100])",
     "matplotlib: misspelt keyword"),
    (38, "from sklearn.model_selection import train_test_split\n\n"
         "X_train, X_test, y_train, y_test = train_test_split(\n    wine.data, wine.traget, random_state=42)",
     "misspelt attribute"),
    (46, "svm_clf = make_pipeline(StandardScaler(), SVC(random_state=42))\n"
         "cross_val_score(svm_clf, X_train, y_trian).mean()", "misspelt name"),
    (47, "from sklearn.model_selection import RandomizedSearchCV\nfrom scipy.stats import loguniform, uniform\n\n"
         "param_distrib = {\n    \"svc__gama\": loguniform(0.001, 0.1),\n    \"svc__C\": uniform(1, 10)\n}\n"
         "rnd_search_cv = RandomizedSearchCV(svm_clf, param_distrib, n_iter=100, cv=5,\n"
         "                                   random_state=42)\nrnd_search_cv.fit(X_train, y_train)",
     "misspelt parameter name"),
]
# amueller/introduction_to_ml_with_python's chapter 6 (algorithm chains and pipelines: scikit-learn's bundled breast
# cancer data scaled with MinMaxScaler into an SVC, a grid search on data scaled beforehand and one in a Pipeline,
# SelectPercentile with f_regression on seeded random data before Ridge and cross_val_score, make_pipeline's step
# names, StandardScaler and PCA on the cancer data, a LogisticRegression's C searched through named_steps, and a grid
# search over whole steps, an SVC or a random forest, with or without scaling; its Boston housing cells are not run):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
IMLP_06 = [
    (1, ("from sklearn.svm import SVC\nfrom sklearn.datasets import load_breast_cancer\n"
         "from sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import MinMaxScaler\n"
         "\n# load and split the data\ncancer = load_breast_cancer()\n"
         "X_train, X_test, y_train, y_test = train_test_split(\n"
         "    cancer.data, cancer.targets, random_state=0)\n\n"
         "# compute minimum and maximum on the training data\nscaler = MinMaxScaler().fit(X_train)"),
     "misspelt attribute"),
    (1, ("from sklearn.svm import SVC\nfrom sklearn.datasets import load_breast_cancer\n"
         "from sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import MinMaxScaler\n"
         "\n# load and split the data\ncancer = load_breast_cancer()\n"
         "X_train, X_test, y_train, y_test = train_test_split(\n"
         "    cancer.data, cancer.target, random_state=0)\n\n"
         "# compute minimum and maximum on the training data\nscaler = MinMaxScaler.fit(X_train)"),
     "the scaler not instantiated"),
    (2, ("# rescale the training data\nX_train_scaled = scaler.transform(X_train)\n\nsvm = SVC()\n"
         "# learn an SVM on the scaled training data\nsvm.fit(X_train_scaled, y_test)\n"
         "# scale the test data and score the scaled data\nX_test_scaled = scaler.transform(X_test)\n"
         "print(\"Test score: {:.2f}\".format(svm.score(X_test_scaled, y_test)))"),
     "the test labels with the training data (X and y of different lengths)"),
    (2, ("# rescale the training data\nX_train_scaled = scaler.transform(X_train)\n\nsvm = SVC()\n"
         "# learn an SVM on the scaled training data\nsvm.fit(X_train_scaled, y_train)\n"
         "# scale the test data and score the scaled data\nX_test_scaled = scaler.transform(X_test)\n"
         "print(\"Test score: {:.2f}\".format(svm.score(X_test, y_test)))"), "the test data scored unscaled (runs)"),
    (3, ("from sklearn.model_selection import GridSearchCV\n"
         "# for illustration purposes only, don't use this code!\n"
         "param_grid = {'C': [0.001, 0.01, 0.1, 1, 10, 100],\n"
         "              'gama': [0.001, 0.01, 0.1, 1, 10, 100]}\n"
         "grid = GridSearchCV(SVC(), param_grid=param_grid, cv=5)\ngrid.fit(X_train_scaled, y_train)\n"
         "print(\"Best cross-validation accuracy: {:.2f}\".format(grid.best_score_))\n"
         "print(\"Best parameters: \", grid.best_params_)\n"
         "print(\"Test set accuracy: {:.2f}\".format(grid.score(X_test_scaled, y_test)))"),
     "misspelt parameter in the grid"),
    (4, "mglearn.plot.plot_improper_processing()", "misspelt module"),
    (8, ("param_grid = {'svm_C': [0.001, 0.01, 0.1, 1, 10, 100],\n"
         "              'svm__gamma': [0.001, 0.01, 0.1, 1, 10, 100]}"),
     "a single underscore in the step's parameter (runs: the grid is only a dict here)"),
    (9, ("grid = GridSearchCV(pipe, param_grid=param_grid, cv=5)\ngrid.fit(X_train, y_train)\n"
         "print(\"Best cross-validation accuracy: {:.2f}\".format(grid.best_score))\n"
         "print(\"Test set score: {:.2f}\".format(grid.score(X_test, y_test)))\n"
         "print(\"Best parameters: {}\".format(grid.best_params_))"),
     "misspelt attribute (the trailing underscore left out)"),
    (12, ("from sklearn.feature_selection import SelectPercentile, f_regression\n\n"
          "select = SelectPercentile(score_func=f_regression, percentile=5).fit(X)\n"
          "X_selected = select.transform(X)\nprint(\"X_selected.shape: {}\".format(X_selected.shape))"),
     "the target left out of a supervised selector's fit"),
    (12, ("from sklearn.feature_selection import SelectPercentile, f_regression\n\n"
          "select = SelectPercentile(score_func=f_regression, percentile=0.05).fit(X, y)\n"
          "X_selected = select.transform(X)\nprint(\"X_selected.shape: {}\".format(X_selected.shape))"),
     "a percentile given as a fraction (runs: 5 features of 10000)"),
    (13, ("from sklearn.model_selection import cross_val_score\nfrom sklearn.linear_model import Ridge\n"
          "print(\"Cross-validation accuracy (cv only on ridge): {:.2f}\".format(\n"
          "      np.mean(cross_val_score(Ridge(), y, X_selected, cv=5))))"), "X and y in the wrong order (a 1-D X)"),
    (14, ("pipe = Pipeline([SelectPercentile(score_func=f_regression,\n"
          "                                             percentile=5),\n                 Ridge()])\n"
          "print(\"Cross-validation accuracy (pipeline): {:.2f}\".format(\n"
          "      np.mean(cross_val_score(pipe, X, y, cv=5))))"), "the steps without their names"),
    (20, ("# fit the pipeline defined before to the cancer dataset\npipe.fit(cancer.data)\n"
          "# extract the first two principal components from the \"pca\" step\n"
          "components = pipe.named_steps[\"PCA\"].components_\n"
          "print(\"components.shape: {}\".format(components.shape))"),
     "a step's name in the class's case (make_pipeline lowercases it)"),
    (23, ("X_train, X_test, y_train, y_test = train_test_split(\n"
          "    cancer.data, cancer.target, random_state=4, test_size=25)\n"
          "grid = GridSearchCV(pipe, param_grid, cv=5)\ngrid.fit(X_train, y_train)"),
     "a test size of 25 meant as a percentage (runs: 25 samples)"),
    (26, ("print(\"Logistic regression coefficients:\\n{}\".format(\n"
          "      grid.best_estimator_.named_steps[\"logisticregression\"].coef))"),
     "misspelt attribute (the trailing underscore left out)"),
    (37, ("pipe = Pipeline([('preprocessing', StandardScaler()), ('classifier', SVC())],\n"
          "                cache_dir=\"cache_folder\")"), "misspelt keyword"),
]
# amueller/introduction_to_ml_with_python's chapter 1 (introduction: a numpy array, scipy's sparse CSR and COO
# matrices of an identity, a sine line plot, a pandas DataFrame of people filtered on age, scikit-learn's bundled iris
# and its Bunch's keys, shapes and target, train_test_split, pandas' scatter_matrix coloured by class with mglearn's
# colormap, and a one-neighbour KNeighborsClassifier's prediction for a new flower and its test-set score): written
# down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code
# cells from 0
IMLP_01 = [
    (1, "import numpy as np\n\nx = np.array([1, 2, 3], [4, 5, 6])\nprint(\"x:\\n{}\".format(x))",
     "the outer brackets left out (the second row as dtype)"),
    (4, ("data = np.ones(4)\nrow_indices = np.arange(4)\ncol_indices = np.arange(4)\n"
         "eye_coo = sparse.coo_matrix((data, row_indices, col_indices))\n"
         "print(\"COO representation:\\n\", eye_coo)"), "the indices not paired in a tuple"),
    (5, ("%matplotlib inline\nimport matplotlib.pyplot as plt\n\n"
         "# Generate a sequence of numbers from -10 to 10 with 100 steps in between\n"
         "x = np.linspace(-10, 10, 0.1)\n# Create a second array using sine\ny = np.sin(x)\n"
         "# The plot function makes a line chart of one array against another\nplt.plot(x, y, marker=\"x\")"),
     "a step for linspace's count"),
    (6, ("import pandas as pd\n\n# create a simple dataset of people\n"
         "data = {'Name': [\"John\", \"Anna\", \"Peter\", \"Linda\"],\n"
         "        'Location' : [\"New York\", \"Paris\", \"Berlin\", \"London\"],\n"
         "        'Age' : [24, 13, 53]\n       }\n\ndata_pandas = pd.DataFrame(data)\n"
         "# IPython.display allows \"pretty printing\" of dataframes\n# in the Jupyter notebook\n"
         "display(data_pandas)"), "a column one value short"),
    (7, "# Select all rows that have an age column greater than 30\ndisplay(data_pandas[data_pandas.age > 30])",
     "column in the wrong case"),
    (11, "print(iris_dataset['descr'][:193] + \"\\n...\")", "key in the wrong case"),
    (16, "print(\"First five rows of data:\\n\", iris_dataset['data'][5])",
     "a row for a slice (runs: the sixth row only)"),
    (20, ("from sklearn.model_selection import train_test_split\n"
          "X_train, X_test, y_train, y_test = train_test_split(\n    iris_dataset['data'], random_state=0)"),
     "the target left out of train_test_split (two arrays into four names)"),
    (23, ("# create dataframe from data in X_train\n"
          "# label the columns using the strings in iris_dataset.feature_names\n"
          "iris_dataframe = pd.DataFrame(X_train, columns=iris_dataset.target_names)\n"
          "# create a scatter matrix from the dataframe, color by y_train\n"
          "pd.plotting.scatter_matrix(iris_dataframe, c=y_train, figsize=(15, 15),\n"
          "                           marker='o', hist_kwds={'bins': 20}, s=60,\n"
          "                           alpha=.8, cmap=mglearn.cm3)"), "three class names as four column labels"),
    (23, ("# create dataframe from data in X_train\n"
          "# label the columns using the strings in iris_dataset.feature_names\n"
          "iris_dataframe = pd.DataFrame(X_train, columns=iris_dataset.feature_names)\n"
          "# create a scatter matrix from the dataframe, color by y_train\n"
          "pd.plotting.scatter_matrix(iris_dataframe, c=y_test, figsize=(15, 15),\n"
          "                           marker='o', hist_kwds={'bins': 20}, s=60,\n"
          "                           alpha=.8, cmap=mglearn.cm3)"),
     "the test labels as the training points' colours"),
    (26, "X_new = np.array([5, 2.9, 1, 0.2])\nprint(\"X_new.shape:\", X_new.shape)",
     "one pair of brackets (runs: a 1-D array)"),
    (27, ("prediction = knn.predict(X_new[0])\nprint(\"Prediction:\", prediction)\n"
          "print(\"Predicted target name:\",\n       iris_dataset['target_names'][prediction])"),
     "one sample as a 1-D array"),
    (28, "y_pred = knn.predict_proba(X_test)\nprint(\"Test set predictions:\\n\", y_pred)",
     "probabilities for the labels (runs)"),
    (29, "print(\"Test set score: {:.2f}\".format(np.mean(y_pred == y_train)))",
     "predictions compared with the training labels"),
    (30, "print(\"Test set score: {:.2f}\".format(knn.score(X_train, y_train)))",
     "the training set scored for the test set (runs)"),
    (31, ("X_train, X_test, y_train, y_test = train_test_split(\n"
          "    iris_dataset['data'], iris_dataset['target'], random_state=0)\n\n"
          "knn = KNeighborsClassifier(n_neighbors=0)\nknn.fit(X_train, y_train)\n\n"
          "print(\"Test set score: {:.2f}\".format(knn.score(X_test, y_test)))"), "zero neighbours"),
]
# ageron/handson-ml3's chapter 6 (decision trees: iris, make_moons and numpy-made data into
# scikit-learn's trees, matplotlib's plots, a grid search and a hand-made forest): written down
# before any run of it, from the notebook's sources alone (held out); code cells from 0
HOML3_CH06 = [
    (4, "from sklearn.datasets import load_iris\nfrom sklearn.tree import DecisionTreeClassifier\n\n"
        "iris = load_iris(as_frame=True)\nX_iris = iris.data[[\"petal length (cm)\", \"petal widht (cm)\"]].values\n"
        "y_iris = iris.target\n\ntree_clf = DecisionTreeClassifier(max_depth=2, random_state=42)\n"
        "tree_clf.fit(X_iris, y_iris)", "misspelt column"),
    (5, "from sklearn.tree import export_graphviz\n\nexport_graphviz(\n        tree_clf,\n"
        "        out_file=str(IMAGES_PATH / \"iris_tree.dot\"),  # path differs in the book\n"
        "        feature_name=[\"petal length (cm)\", \"petal width (cm)\"],\n"
        "        class_names=iris.target_names,\n        rounded=True,\n        filled=True\n    )",
     "misspelt keyword of a function"),
    (8, "import numpy as np\nimport matplotlib.pyplot as plt\n\n# extra code – just formatting details\n"
        "from matplotlib.colors import ListedColormap\ncustom_cmap = ListedColormap(['#fafab0', '#9898ff', '#a0faa0'])\n"
        "plt.figure(figsize=(8, 4))\n\n"
        "lengths, widths = np.meshgrid(np.linspace(0, 7.2, 100), np.linspace(0, 3, 100))\n"
        "X_iris_all = np.c_[lengths.ravel(), widths]\n"
        "y_pred = tree_clf.predict(X_iris_all).reshape(lengths.shape)", "numpy: a ravel forgotten in np.c_"),
    (11, "tree_clf.predict_proba(iris.data[:1]).round(3)", "X of another width to predict (all four columns)"),
    (12, "tree_clf.predict([[\"5 cm\", \"1.5 cm\"]])", "text into a numeric estimator"),
    (13, "from sklearn.datasets import make_moons\n\n"
         "X_moons, y_moons = make_moons(n_samples=150, noise=0.2, random_state=42)\n\n"
         "tree_clf1 = DecisionTreeClassifier(random_state=42)\n"
         "tree_clf2 = DecisionTreeClassifier(min_sample_leaf=5, random_state=42)\n"
         "tree_clf1.fit(X_moons, y_moons)\ntree_clf2.fit(X_moons, y_moons)", "misspelt keyword"),
    (15, "X_moons_test, y_moons_test = make_moons(n_samples=1000, noise=0.2,\n"
         "                                        random_state=43)\ntree_clf1.score(X_moons_test, y_moons)",
     "X and y of different lengths (the training y)"),
    (16, "tree_clf2.score(X_moons_test, y_moon_test)", "misspelt name"),
    (17, "from sklearn.tree import DecisionTreeRegressor\n\nnp.random.seed(42)\n"
         "X_quad = np.random.rand(200, 1) - 0.5  # a single random input feature\n"
         "y_quad = X_quad ** 2 + 0.025 * np.random.randn(200, 1)\n\n"
         "tree_reg = DecisionTreeRegressor(max_depth=2, criterion=\"mse\", random_state=42)\n"
         "tree_reg.fit(X_quad, y_quad)", "a parameter value scikit-learn 1.2 removed"),
    (19, "tree_reg2 = DecisionTreeRegressor(max_depth=3, random_state=42)\ntree_reg2.fit(X_quad.ravel(), y_quad)",
     "1-D X"),
    (20, "tree_reg.tree_.thresholds", "misspelt attribute"),
    (22, "# extra code – this cell generates and saves Figure 6–5\n\n"
         "def plot_regression_predictions(tree_reg, X, y, axes=[-0.5, 0.5, -0.05, 0.25]):\n"
         "    x1 = np.linspace(axes[0], axes[1], 500)\n    y_pred = tree_reg.predict(x1)\n"
         "    plt.axis(axes)\n    plt.xlabel(\"$x_1$\")\n    plt.plot(X, y, \"b.\")\n"
         "    plt.plot(x1, y_pred, \"r.-\", linewidth=2, label=r\"$\\hat{y}$\")\n\n"
         "fig, axes = plt.subplots(ncols=2, figsize=(10, 4), sharey=True)\nplt.sca(axes[0])\n"
         "plot_regression_predictions(tree_reg, X_quad, y_quad)",
     "1-D X to predict (the reshape left out, in the cell's function)"),
    (23, "# extra code – this cell generates and saves Figure 6–6\n\n"
         "tree_reg1 = DecisionTreeRegressor(random_state=42)\n"
         "tree_reg2 = DecisionTreeRegressor(random_state=42, min_samples_leaf=10)\ntree_reg2.fit(X_quad, y_quad)\n\n"
         "x1 = np.linspace(-0.5, 0.5, 500).reshape(-1, 1)\ny_pred1 = tree_reg1.predict(x1)\n"
         "y_pred2 = tree_reg2.predict(x1)", "predict before fit (one fit line left out)"),
    (25, "from sklearn.decomposition import PCA\nfrom sklearn.pipeline import make_pipeline\n"
         "from sklearn.preprocessing import StandardScaler\n\n"
         "pca_pipeline = make_pipeline(StandardScaler(), PCA(n_components=3))\n"
         "X_iris_rotated = pca_pipeline.fit_transform(X_iris)\n"
         "tree_clf_pca = DecisionTreeClassifier(max_depth=2, random_state=42)\n"
         "tree_clf_pca.fit(X_iris_rotated, y_iris)", "a parameter value the estimator refuses (3 components of 2)"),
    (28, "# extra code – this cell generates and saves Figure 6–9\n\nplt.figure(figsize=(8, 4))\n"
         "y_pred = tree_clf_tweaked.predict(X_iris_all).reshape(X_iris_all.shape)\n"
         "plt.contourf(lengths, widths, y_pred, alpha=0.3, cmap=custom_cmap)", "numpy: reshape to the wrong shape"),
    (35, "tree_clf.n_leaves", "the tree's attribute read on the estimator"),
    (39, "is_leaf = (tree.children_left == tree.children_right)\nnp.arange(tree.n_leaves)[is_leaf]",
     "numpy: a boolean mask of another length"),
    (49, "from sklearn.model_selection import train_test_split\n\n"
         "X_train, X_test, y_train, y_test = train_test_split(X_moons, y_moons_test,\n"
         "                                                    test_size=0.2,\n"
         "                                                    random_state=42)", "X and y of different lengths"),
    (51, "grid_search_cv.best_estimator", "misspelt attribute"),
    (54, "from sklearn.base import clone\n\n"
         "forest = [clone(grid_search_cv.best_estimator_) for _ in range(n_trees)]\n\naccuracy_scores = []\n\n"
         "for tree, (X_mini_train, y_mini_train) in zip(forest, mini_sets):\n"
         "    tree.fit(X_mini_train, y_mini_train)\n    \n    y_pred = tree.predcit(X_test)\n"
         "    accuracy_scores.append(accuracy_score(y_test, y_pred))\n\nnp.mean(accuracy_scores)",
     "misspelt method"),
]
# jakevdp/WhirlwindTourOfPython, 06 (built-in data structures: a list's len, append, + and in-place sort, a list of
# mixed types, indexing and slicing from either end and with a step, assignment to an item and to a slice; tuples with
# and without parentheses, their len and indexing and their immutability; a float's as_integer_ratio unpacked; a
# dict's value read by key and a new key set; sets' union, intersection, difference and symmetric difference, by
# operator and by method): written down before any run of the guard, from the notebook's sources alone (held out;
# checked in a plain kernel only); code cells from 0
WWT_06 = [
    (0, "L = list(2, 3, 5, 7)", "the values passed to list one by one"),
    (3, "# Addition concatenates lists\nL + 13", "an int added to a list"),
    (4, "# sort() method sorts in-place\nL = [2, 5, 1, 6, 3, 4]\nL = L.sort()\nL",
     "sort's None assigned back (runs: L is None)"),
    (4, "# sort() method sorts in-place\nL = [2, 5, 1, 6, 3, 4]\nL.sort(reversed=True)\nL",
     "misspelt keyword (reverse)"),
    (9, "L[len(L)]", "the last item by len, off by one"),
    (12, "L[3:]", "the slice's colon on the wrong side (runs)"),
    (14, "L[::0]  # equivalent to L[0:len(L):2]", "a step of 0"),
    (15, "L.reversed()", "the reversed builtin's name as a method"),
    (16, "L[5] = 100\nprint(L)", "an assignment one past the end"),
    (21, "t(0)", "the tuple called with parentheses"),
    (25, "numerator, denominator = x.as_integer_ratio\nprint(numerator / denominator)", "the method not called"),
    (27, "# Access a value via the key\nnumbers['Two']", "a key in another case"),
    (28, "# Set a new key:value pair\nnumbers['ninety'] == 90\nprint(numbers)",
     "a comparison typed for the assignment"),
    (30, ("# union: items appearing in either\nprimes + odds      # with an operator\n"
          "primes.union(odds) # equivalently with a method"),
     "+ for the union |"),
    (31, ("# intersection: items appearing in both\nprimes and odds             # with an operator\n"
          "primes.intersection(odds) # equivalently with a method"),
     "Python's and for & (runs: odds)"),
    (32, ("# difference: items in primes but not in odds\nprimes - odds           # with an operator\n"
          "odds.difference(primes) # equivalently with a method"),
     "the sets in the wrong order (runs: {1, 9})"),
]
# jakevdp/WhirlwindTourOfPython, 15 (a preview of the data science tools: numpy's arange squared against a list
# comprehension, reshaped to a 3 x 3 matrix, its transpose, a dot product with a list and its eigenvalues; a pandas
# DataFrame of labels and values, a column, its str.lower, a sum and a groupby sum; matplotlib's notebook backend, the
# ggplot style and a sine plotted on linspace; scipy's interp1d, cubic, through eight points of a sine, evaluated on a
# grid of 1,000 and plotted): written down before any run of the guard, from the notebook's sources alone (held out;
# checked in a plain kernel only); code cells from 0
WWT_15 = [
    (0, "import numpy as np\nx = np.arrange(1, 10)\nx", "misspelt function (arange)"),
    (1, "x ^ 2", "^ for the power ** (runs: a bitwise xor)"),
    (3, "M = x.reshape((3, 4))\nM", "a shape of 12 for 9 values"),
    (5, "np.dot(M, [5, 6, 7, 8])", "a vector of 4 to a 3 x 3 matrix"),
    (5, "np.dot([5, 6, 7], M)", "the arguments in the wrong order (runs: the vector times M)"),
    (6, "np.linalg.eigvals(x)", "the 1-D x for the matrix M"),
    (7, ("import pandas as pd\ndf = pd.DataFrame({'label': ['A', 'B', 'C', 'A', 'B', 'C'],\n"
         "                   'value': [1, 2, 3, 4, 5]})\ndf"),
     "five values for six labels"),
    (8, "df['labels']", "misspelt column"),
    (9, "df['label'].lower()", "the str accessor left out"),
    (10, "df['value'].sum(axis=1)", "axis 1 on a Series"),
    (11, "df.groupby('value').sum()", "grouped by the other column (runs: the labels joined)"),
    (13, ("import matplotlib.pyplot as plt\n"
          "plt.style.use('ggplot2')  # make graphs in the style of R's ggplot"),
     "the style named as R's ggplot2 package"),
    (14, ("x = np.linspace(0, 10, 0.1)  # range of values from 0 to 10\n"
          "y = np.sin(x)           # sine of these values\nplt.plot(x, y);         # plot as a line"),
     "a step given to linspace where it takes a number of points"),
    (14, ("x = np.linspace(0, 10)  # range of values from 0 to 10\n"
          "y = np.sin(x)           # sine of these values\nplt.plot(y, x);         # plot as a line"),
     "x and y in the wrong order (runs)"),
    (15, ("from scipy import interpolate\n\n# choose eight points between 0 and 10\n"
          "x = np.linspace(0, 10, 8)\ny = np.sin(x)\n\n# create a cubic interpolation function\n"
          "func = interpolate.interp1d(x, y, kind='cubic')\n\n# interpolate on a grid of 1,000 points\n"
          "x_interp = np.linspace(0, 11, 1000)\ny_interp = func(x_interp)\n\n# plot the results\n"
          "plt.figure()  # new figure\nplt.plot(x, y, 'o')\nplt.plot(x_interp, y_interp);"),
     "a grid past the points' range"),
    (15, ("from scipy import interpolate\n\n# choose eight points between 0 and 10\n"
          "x = np.linspace(0, 10, 8)\ny = np.sin(x)\n\n# create a cubic interpolation function\n"
          "func = interpolate.interp1d(x, y, kind='cubic')\n\n# interpolate on a grid of 1,000 points\n"
          "x_interp = np.linspace(0, 10, 1000)\ny_interp = func(x_interp)\n\n# plot the results\n"
          "plt.figure()  # new figure\nplt.plot(x, y, 'o')\nplt.plot(x_interp, y);"),
     "the eight points' y against the grid"),
]
# jakevdp/WhirlwindTourOfPython, 14 (strings and regular expressions: str's case methods, strip and its variants,
# center, ljust, rjust and zfill, find, index and rfind, startswith and endswith, replace, partition, split,
# splitlines and join, str() and format with positional, named and format-spec fields, a shell escape; re's compile,
# split, match, search, sub and findall, character sets, escapes and raw strings, repetition, groups and named
# groups): written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain
# kernel only); code cells from 0
WWT_14 = [
    (11, "num = \"000000000000435\"\nnum.strip(0)", "the character to strip as an int"),
    (13, "line.ljust(3)", "a width of 3 for 30 (runs: the line unpadded)"),
    (15, "'435'.rjust('0', 10)", "the width and the fill character in the wrong order"),
    (18, "line.index('Fox')", "a substring in another case"),
    (22, "line.endswith(['dog', 'cat'])", "a list of suffixes for a tuple"),
    (24, "line.replace('Brown', 'red')", "a substring in another case (runs: nothing replaced)"),
    (27, "line.split('')", "an empty separator"),
    (29, "'--'.join([1, 2, 3])", "ints joined"),
    (32, "\"The value of pi is \" + pi", "a float added to a str"),
    (34, "\"\"\"First letter: {0}. Last letter: {1}.\"\"\".format('A')", "one value for two fields"),
    (35, "\"\"\"First letter: {first}. Last letter: {last}.\"\"\".format(last='Z', frist='A')", "misspelt keyword"),
    (36, "\"pi = {0:.3f}\".format(str(pi))", "a str to a float format"),
    (39, ("for s in [\"     \", \"abc  \", \"  abc\"]:\n    if regex.search(s):\n"
          "        print(repr(s), \"matches\")\n    else:\n        print(repr(s), \"does not match\")"),
     "search for match (runs: 'abc  ' matches)"),
    (42, "regex = re.compile('Fox')\nmatch = regex.search(line)\nmatch.start()",
     "a pattern in another case (no match)"),
    (44, "regex.sub(line, 'BEAR')", "the replacement and the string in the wrong order (runs)"),
    (54, "regex = re.compile('[aeiou')\nregex.split('consequential')", "an unclosed character set"),
]
# ageron/handson-ml3's chapter 7 (ensembles: make_moons, iris and numpy-made data into scikit-learn's
# voting, bagging, random forests, AdaBoost, gradient boosting and stacking, matplotlib's plots): written
# down before any run of the guard, from the notebook's sources alone (held out); code cells from 0
HOML3_CH07 = [
    (4, ("# extra code – this cell generates and saves Figure 7–3\n\nimport matplotlib.pyplot as plt\n"
         "import numpy as np\n\nheads_proba = 0.51\nnp.random.seed(42)\n"
         "coin_tosses = (np.random.rand(10000, 10) < heads_proba).astype(np.int32)\n"
         "cumulative_heads = coin_tosses.cumsum(axis=0)\n"
         "cumulative_heads_ratio = cumulative_heads / np.arange(1, 10001)"),
     "numpy: broadcasting (the reshape left out)"),
    (5, ("from sklearn.datasets import make_moons\n"
         "from sklearn.ensemble import RandomForestClassifier, VotingClassifier\n"
         "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n"
         "from sklearn.svm import SVC\n\nX, y = make_moons(n_samples=500, noise=0.30, random_state=42)\n"
         "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=42)\n\n"
         "voting_clf = VotingClassifier(\n    estimators=[\n        ('lr', LogisticRegression(random_state=42)),\n"
         "        ('rf', RandomForestClassifier(random_sate=42)),\n        ('svc', SVC(random_state=42))\n    ]\n)\n"
         "voting_clf.fit(X_train, y_train)"), "misspelt keyword"),
    (6, 'for name, clf in voting_clf.named_estimators_.items():\n    print(name, "=", clf.score(X_test, y_train))',
     "X and y of different lengths (in a loop)"),
    (7, "voting_clf.predict(X_test[0])", "1-D X to predict"),
    (8, "[clf.predict(X_test[:1]) for clf in voting_clf.named_estimators_]",
     "a loop over a dict's names for its estimators"),
    (10, ('voting_clf.voting = "sotf"\nvoting_clf.named_estimators["svc"].probability = True\n'
          "voting_clf.fit(X_train, y_train)\nvoting_clf.score(X_test, y_test)"), "misspelt parameter value"),
    (11, ("from sklearn.ensemble import BaggingClassifier\nfrom sklearn.tree import DecisionTreeClassifier\n\n"
          "bag_clf = BaggingClassifier(DecisionTreeClassifier, n_estimators=500,\n"
          "                            max_samples=100, n_jobs=-1, random_state=42)\nbag_clf.fit(X_train, y_train)"),
     "the estimator's class for an instance (parentheses left out)"),
    (12, ("# extra code – this cell generates and saves Figure 7–5\n\n"
          "def plot_decision_boundary(clf, X, y, alpha=1.0):\n    axes=[-1.5, 2.4, -1, 1.5]\n"
          "    x1, x2 = np.meshgrid(np.linspace(axes[0], axes[1], 100),\n"
          "                         np.linspace(axes[2], axes[3], 100))\n    X_new = np.r_[x1.ravel(), x2.ravel()]\n"
          "    y_pred = clf.predict(X_new).reshape(x1.shape)\n    \n"
          "    plt.contourf(x1, x2, y_pred, alpha=0.3 * alpha, cmap='Wistia')\n"
          '    plt.contour(x1, x2, y_pred, cmap="Greys", alpha=0.8 * alpha)\n    colors = ["#78785c", "#c47b27"]\n'
          '    markers = ("o", "^")\n    for idx in (0, 1):\n        plt.plot(X[:, 0][y == idx], X[:, 1][y == idx],\n'
          '                 color=colors[idx], marker=markers[idx], linestyle="none")\n    plt.axis(axes)\n'
          '    plt.xlabel(r"$x_1$")\n    plt.ylabel(r"$x_2$", rotation=0)\n\n'
          "tree_clf = DecisionTreeClassifier(random_state=42)\ntree_clf.fit(X_train, y_train)\n\n"
          "fig, axes = plt.subplots(ncols=2, figsize=(10, 4), sharey=True)\nplt.sca(axes[0])\n"
          "plot_decision_boundary(tree_clf, X_train, y_train)"), "numpy: np.r_ for np.c_ (in the cell's function)"),
    (14, "bag_clf.oob_decision_function[:3]  # probas for the first 3 instances", "misspelt attribute"),
    (17, ("from sklearn.ensemble import RandomForestClassifier\n\n"
          'rnd_clf = RandomForestClassifier(n_estimators=500, max_leaf_nodes=16, max_features="auto",\n'
          "                                 n_jobs=-1, random_state=42)\nrnd_clf.fit(X_train, y_train)\n"
          "y_pred_rf = rnd_clf.predict(X_test)"), "a parameter value scikit-learn 1.3 removed"),
    (19, ("# extra code – verifies that the predictions are identical\ny_pred_bag = bag_clf.predict(X_test)\n"
          "np.all(y_pred_bag == y_pred_rf)  # same predictions"), "predict before fit (the fit line left out)"),
    (20, ("from sklearn.datasets import load_iris\n\niris = load_iris(as_frame=True)\n"
          "rnd_clf = RandomForestClassifier(n_estimators=500, random_state=42)\n"
          'rnd_clf.fit(iris.data["petal length (cm)"], iris.target)\n'
          "for score, name in zip(rnd_clf.feature_importances_, iris.data.columns):\n    print(round(score, 2), name)"),
     "1-D X (one column as a Series)"),
    (22, ("# extra code – this cell generates and saves Figure 7–8\n\nm = len(X)\n\n"
          "fig, axes = plt.subplots(ncols=2, figsize=(10, 4), sharey=True)\n"
          "for subplot, learning_rate in ((0, 1), (1, 0.5)):\n    sample_weights = np.ones(m) / m\n"
          "    plt.sca(axes[subplot])\n    for i in range(5):\n"
          "        svm_clf = SVC(C=0.2, gamma=0.6, random_state=42)\n"
          "        svm_clf.fit(X_train, y_train, sample_weight=sample_weights * m)\n"
          "        y_pred = svm_clf.predict(X_train)\n\n"
          "        error_weights = sample_weights[y_pred != y_train].sum()\n"
          "        r = error_weights / sample_weights.sum()  # equation 7-1\n"
          "        alpha = learning_rate * np.log((1 - r) / r)  # equation 7-2\n"
          "        sample_weights[y_pred != y_train] *= np.exp(alpha)  # equation 7-3\n"
          "        sample_weights /= sample_weights.sum()  # normalization step\n\n"
          "        plot_decision_boundary(svm_clf, X_train, y_train, alpha=0.4)\n"
          '        plt.title(f"learning_rate = {learning_rate}")\n    if subplot == 0:\n'
          '        plt.text(-0.75, -0.95, "1", fontsize=16)\n        plt.text(-1.05, -0.95, "2", fontsize=16)\n'
          '        plt.text(1.0, -0.95, "3", fontsize=16)\n        plt.text(-1.45, -0.5, "4", fontsize=16)\n'
          '        plt.text(1.36,  -0.95, "5", fontsize=16)\n    else:\n        plt.ylabel("")'),
     "sample weights of another length (in a loop)"),
    (23, ("from sklearn.ensemble import AdaBoostClassifier\n\nada_clf = AdaBoostClassifier(\n"
          "    base_estimator=DecisionTreeClassifier(max_depth=1), n_estimators=30,\n"
          "    learning_rate=0.5, random_state=42)\nada_clf.fit(X_train, y_train)"),
     "a keyword scikit-learn 1.4 removed (base_estimator)"),
    (24, ("# extra code – in case you're curious to see what the decision boundary\n"
          "#              looks like for the AdaBoost classifier\nplot_decision_boundary(ada_clf, X_train, y_test)"),
     "numpy: a boolean mask of another length (in an earlier cell's function)"),
    (26, ("y2 = y - tree_reg2.predict(X)\ntree_reg2 = DecisionTreeRegressor(max_depth=2, random_state=43)\n"
          "tree_reg2.fit(X, y2)"), "a name the cell defines later"),
    (28, ("X_new = np.array([[-0.4, 0., 0.5]])\n"
          "sum(tree.predict(X_new) for tree in (tree_reg1, tree_reg2, tree_reg3))"),
     "X of another width to predict (one row for three)"),
    (29, ("# extra code – this cell generates and saves Figure 7–9\n\n"
          "def plot_predictions(regressors, X, y, axes, style,\n"
          '                     label=None, data_style="b.", data_label=None):\n'
          "    x1 = np.linspace(axes[0], axes[1], 500)\n    y_pred = sum(regressor.predict(x1.reshape(-1, 1))\n"
          "                 for regressor in regressors)\n    plt.plot(X[:, 0], y, data_style, label=data_label)\n"
          "    plt.plot(x1, y_pred, style, linewidth=2, label=label)\n    if label or data_label:\n"
          '        plt.legend(loc="upper centre")\n    plt.axis(axes)\n\nplt.figure(figsize=(11, 11))\n\n'
          'plt.subplot(3, 2, 1)\nplot_predictions([tree_reg1], X, y, axes=[-0.5, 0.5, -0.2, 0.8], style="g-",\n'
          '                 label="$h_1(x_1)$", data_label="Training set")'),
     "matplotlib: misspelt value (in the cell's function)"),
    (33, ("# extra code – this cell generates and saves Figure 7–10\n\n"
          "fig, axes = plt.subplots(ncol=2, figsize=(10, 4), sharey=True)"), "matplotlib: misspelt keyword"),
    (37, ("from sklearn.ensemble import StackingClassifier\n\nstacking_clf = StackingClassifier(\n    estimators=[\n"
          "        LogisticRegression(random_state=42),\n        RandomForestClassifier(random_state=42),\n"
          "        SVC(probability=True, random_state=42)\n    ],\n"
          "    final_estimator=RandomForestClassifier(random_state=43),\n"
          "    cv=5  # number of cross-validation folds\n)\nstacking_clf.fit(X_train, y_train)"),
     "estimators without their names"),
]
# ageron/handson-ml3's extra_gradient_descent_comparison (batch, stochastic and mini-batch gradient descent compared on
# numpy-made linear data: the normal equation, the three descents' parameter paths as arrays, a cost map on a meshgrid,
# the fits and paths drawn side by side with pcolor and a colorbar, and a FuncAnimation of them shown as jshtml):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
HOML3_EXTRA_GD = [
    (0, ("import matplotlib\nimport matplotlib.pyplot as plt\nfrom matplotlib.animation import FuncAnimation\n\n"
         "matplotlib.rc('animation', html='js_html')"),
     "matplotlib: an animation.html value misspelt"),
    (1, ("import numpy as np\n\nm = 100\nX = 2 * np.random.rand((m, 1))\nX_b = np.c_[np.ones((m, 1)), X]\n"
         "y = 4 + 3 * X + np.random.rand(m, 1)"),
     "the shape passed to rand as a tuple"),
    (1, ("import numpy as np\n\nm = 100\nX = 2 * np.random.rand(m, 1)\nX_b = np.c_[np.ones(m, 1), X]\n"
         "y = 4 + 3 * X + np.random.rand(m, 1)"),
     "the shape's parentheses left out of np.ones (1 read as the dtype)"),
    (1, ("import numpy as np\n\nm = 100\nX = 2 * np.random.rand(m)\nX_b = np.c_[np.ones((m, 1)), X]\n"
         "y = 4 + 3 * X + np.random.rand(m, 1)"),
     "the noise drawn as a 1-D array (runs: y broadcast to 100 x 100)"),
    (7, ("theta0, theta1 = np.meshgrid(np.arange(0, 5, 0.1), np.arange(0, 5, 0.1))\nr, c = theta0.size\n"
         "cost_map = np.array([[0 for _ in range(c)] for _ in range(r)])\nfor i in range(r):\n"
         "    for j in range(c):\n        theta = np.array([theta0[i,j], theta1[i,j]])\n"
         "        cost_map[i,j] = compute_mse(theta)"),
     "size (a count) for shape"),
    (7, ("theta0, theta1 = np.meshgrid(np.arange(0, 5, 0.1), np.arange(0, 5, 0.1))\nr, c = theta0.shape\n"
         "cost_map = np.array([[0 for _ in range(c)] for _ in range(r)])\nfor i in range(r):\n"
         "    for j in range(1, c + 1):\n        theta = np.array([theta0[i,j], theta1[i,j]])\n"
         "        cost_map[i,j] = compute_mse(theta)"),
     "the columns counted from 1"),
    (8, ("exact_solution = np.linalg.inv(X_b.T * X_b) @ X_b.T @ y\nbgd_thetas = np.array(batch_gradient_descent())\n"
         "sgd_thetas = np.array(stochastic_gradient_descent())\nmbgd_thetas = np.array(mini_batch_gradient_descent())"),
     "* (element-wise) for @ in the normal equation"),
    (8, ("exact_solution = np.linalg.inv(X_b.T @ X_b) @ X_b.T @ y\nbgd_thetas = np.array(batch_gradient_descent)\n"
         "sgd_thetas = np.array(stochastic_gradient_descent())\nmbgd_thetas = np.array(mini_batch_gradient_descent())"),
     "the function not called (runs: a 0-d object array)"),
    (9, ("bgd_len = bgd_thetas.shape[1]\nsgd_len = len(sgd_thetas)\nmbgd_len = len(mbgd_thetas)\n"
         "n_iter = min(bgd_len, sgd_len, mbgd_len)"),
     "the wrong axis's length (runs: 2 iterations)"),
    (10, ("fig = plt.figure(figsize=(10, 5))\ndata_ax = fig.add_subplot(121)\ncost_ax = fig.add_subplot(123)\n\n"
          "data_ax.plot(X, y, 'k.')\n\ncost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\n\ni = -1\n"
          "[bgd_data_plot] = data_ax.plot(X, X_b @ bgd_thetas[i,:], 'r-')\n"
          "[bgd_cost_plot] = cost_ax.plot(bgd_thetas[:i,0], bgd_thetas[:i,1], 'r--')\n\n"
          "[sgd_data_plot] = data_ax.plot(X, X_b @ sgd_thetas[i,:], 'g-')\n"
          "[sgd_cost_plot] = cost_ax.plot(sgd_thetas[:i,0], sgd_thetas[:i,1], 'g--')\n\n"
          "[mbgd_data_plot] = data_ax.plot(X, X_b @ mbgd_thetas[i,:], 'b-')\n"
          "[mbgd_cost_plot] = cost_ax.plot(mbgd_thetas[:i,0], mbgd_thetas[:i,1], 'b--')\n\ndata_ax.set_xlim([0, 2])\n"
          "data_ax.set_ylim([0, 15])\ncost_ax.set_xlim([3, 5])\ncost_ax.set_ylim([2, 5])\n\n"
          "data_ax.set_xlabel(r'$x_1$')\ndata_ax.set_ylabel(r'$y$', rotation=0)\ncost_ax.set_xlabel(r'$\\theta_0$')\n"
          "cost_ax.set_ylabel(r'$\\theta_1$')\n\ndata_ax.legend(('Data', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n"
          "cost_ax.legend(('Normal Equation', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n\n"
          "cost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_img = cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\nfig.colorbar(cost_img)\nplt.show()"),
     "the second subplot numbered past its 1 x 2 grid"),
    (10, ("fig = plt.figure(figsize=(10, 5))\ndata_ax = fig.add_subplot(121)\ncost_ax = fig.add_subplot(122)\n\n"
          "data_ax.plot(X, y, 'k.')\n\ncost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\n\ni = -1\n"
          "[bgd_data_plot] = data_ax.plot(X, X_b @ bgd_thetas[i,:], 'r-')\n"
          "[bgd_cost_plot] = cost_ax.plot(bgd_thetas[:i,0], bgd_thetas[:i,1], 'r--')\n\n"
          "[sgd_data_plot] = data_ax.plot(X, sgd_thetas[i,:] @ X_b, 'g-')\n"
          "[sgd_cost_plot] = cost_ax.plot(sgd_thetas[:i,0], sgd_thetas[:i,1], 'g--')\n\n"
          "[mbgd_data_plot] = data_ax.plot(X, X_b @ mbgd_thetas[i,:], 'b-')\n"
          "[mbgd_cost_plot] = cost_ax.plot(mbgd_thetas[:i,0], mbgd_thetas[:i,1], 'b--')\n\ndata_ax.set_xlim([0, 2])\n"
          "data_ax.set_ylim([0, 15])\ncost_ax.set_xlim([3, 5])\ncost_ax.set_ylim([2, 5])\n\n"
          "data_ax.set_xlabel(r'$x_1$')\ndata_ax.set_ylabel(r'$y$', rotation=0)\ncost_ax.set_xlabel(r'$\\theta_0$')\n"
          "cost_ax.set_ylabel(r'$\\theta_1$')\n\ndata_ax.legend(('Data', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n"
          "cost_ax.legend(('Normal Equation', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n\n"
          "cost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_img = cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\nfig.colorbar(cost_img)\nplt.show()"),
     "the matrix product's operands swapped"),
    (10, ("fig = plt.figure(figsize=(10, 5))\ndata_ax = fig.add_subplot(121)\ncost_ax = fig.add_subplot(122)\n\n"
          "data_ax.plot(X, y, 'k.')\n\ncost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\n\ni = -1\n"
          "[bgd_data_plot] = data_ax.plot(X, X_b @ bgd_thetas[i,:], 'r-')\n"
          "[bgd_cost_plot] = cost_ax.plot(bgd_thetas[:i,0], bgd_thetas[:i,1], 'r--')\n\n"
          "[sgd_data_plot] = data_ax.plot(X, X_b @ sgd_thetas[i,:], 'g-')\n"
          "[sgd_cost_plot] = cost_ax.plot(sgd_thetas[:i,0], sgd_thetas[:i,1], 'g--')\n\n"
          "[mbgd_data_plot] = data_ax.plot(X, X_b @ mbgd_thetas[i,:], 'b-')\n"
          "[mbgd_cost_plot] = cost_ax.plot(mbgd_thetas[:i,0], mbgd_thetas[:i,1], 'b--')\n\ndata_ax.set_xlim([0, 2])\n"
          "data_ax.set_ylim([0, 15])\ncost_ax.set_xlim([3, 5])\ncost_ax.set_ylim([2, 5])\n\n"
          "data_ax.set_xlabel(r'$x_1$')\ndata_ax.set_ylabel(r'$y$', rotation=0)\ncost_ax.set_xlabel(r'$\\theta_0$')\n"
          "cost_ax.set_ylabel(r'$\\theta_1$')\n\ndata_ax.legend(('Data', 'BGD', 'SGD', 'MBGD'), loc=\"upper-left\")\n"
          "cost_ax.legend(('Normal Equation', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n\n"
          "cost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_img = cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\nfig.colorbar(cost_img)\nplt.show()"),
     "matplotlib: a legend location with a hyphen"),
    (10, ("fig = plt.figure(figsize=(10, 5))\ndata_ax = fig.add_subplot(121)\ncost_ax = fig.add_subplot(122)\n\n"
          "data_ax.plot(X, y, 'k.')\n\ncost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\n\ni = -1\n"
          "[bgd_data_plot] = data_ax.plot(X, X_b @ bgd_thetas[i,:], 'r-')\n"
          "[bgd_cost_plot] = cost_ax.plot(bgd_thetas[:i,0], bgd_thetas[:i,1], 'r--')\n\n"
          "[sgd_data_plot] = data_ax.plot(X, X_b @ sgd_thetas[i,:], 'g-')\n"
          "[sgd_cost_plot] = cost_ax.plot(sgd_thetas[:i,0], sgd_thetas[:i,1], 'g--')\n\n"
          "[mbgd_data_plot] = data_ax.plot(X, X_b @ mbgd_thetas[i,:], 'b-')\n"
          "[mbgd_cost_plot] = cost_ax.plot(mbgd_thetas[:i,0], mbgd_thetas[:i,1], 'b--')\n\ndata_ax.set_xlim([0, 2])\n"
          "data_ax.set_ylim([0, 15])\ncost_ax.set_xlim([3, 5])\ncost_ax.set_ylim([2, 5])\n\n"
          "data_ax.set_xlabel(r'$x_1$')\ndata_ax.set_ylabel(r'$y$', rotation=0)\ncost_ax.set_xlabel(r'$\\theta_0$')\n"
          "cost_ax.set_ylabel(r'$\\theta_1$')\n\ndata_ax.legend(('Data', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n"
          "cost_ax.legend(('Normal Equation', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n\n"
          "cost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_img = cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\nfig.colorbar(cost_ax)\nplt.show()"),
     "the Axes given to colorbar, not the image"),
    (10, ("fig = plt.figure(figsize=(10, 5))\ndata_ax = fig.add_subplot(121)\ncost_ax = fig.add_subplot(122)\n\n"
          "data_ax.plot(X, y, 'k.')\n\ncost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\n\ni = -1\n"
          "bgd_data_plot = data_ax.plot(X, X_b @ bgd_thetas[i,:], 'r-')\n"
          "[bgd_cost_plot] = cost_ax.plot(bgd_thetas[:i,0], bgd_thetas[:i,1], 'r--')\n\n"
          "[sgd_data_plot] = data_ax.plot(X, X_b @ sgd_thetas[i,:], 'g-')\n"
          "[sgd_cost_plot] = cost_ax.plot(sgd_thetas[:i,0], sgd_thetas[:i,1], 'g--')\n\n"
          "[mbgd_data_plot] = data_ax.plot(X, X_b @ mbgd_thetas[i,:], 'b-')\n"
          "[mbgd_cost_plot] = cost_ax.plot(mbgd_thetas[:i,0], mbgd_thetas[:i,1], 'b--')\n\ndata_ax.set_xlim([0, 2])\n"
          "data_ax.set_ylim([0, 15])\ncost_ax.set_xlim([3, 5])\ncost_ax.set_ylim([2, 5])\n\n"
          "data_ax.set_xlabel(r'$x_1$')\ndata_ax.set_ylabel(r'$y$', rotation=0)\ncost_ax.set_xlabel(r'$\\theta_0$')\n"
          "cost_ax.set_ylabel(r'$\\theta_1$')\n\ndata_ax.legend(('Data', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n"
          "cost_ax.legend(('Normal Equation', 'BGD', 'SGD', 'MBGD'), loc=\"upper left\")\n\n"
          "cost_ax.plot(exact_solution[0,0], exact_solution[1,0], 'y*')\n"
          "cost_img = cost_ax.pcolor(theta0, theta1, cost_map, shading='auto')\nfig.colorbar(cost_img)\nplt.show()"),
     "the one-line list not unpacked (runs: a list kept)"),
    (12, "FuncAnimation(animate, fig, frames=n_iter // 3)",
     "the figure and the function in the wrong order"),
    (12, "FuncAnimation(fig, animate, frames=n_iter / 3)",
     "a float frame count (/ for //)"),
]
# ageron/handson-ml3's math_differential_calculus (the slope of a line and of a curve drawn with matplotlib and arrows,
# FuncAnimations shown as jshtml of secants turning into tangents, of tangents along a curve with its derivative and of
# gradient descent, a function's extrema, partial derivatives as tangents on a 3D surface, and the unit circle's
# triangles, arc and text made with patches and functools.partial): written down before any run of the guard, from the
# notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
HOML3_MATH_CALCULUS = [
    (0, ("#@title\nimport matplotlib as mpl\nimport matplotlib.pyplot as plt\nimport numpy as np\n\n"
         "# To get smooth animations\nimport matplotlib.animation as animation\nmpl.rc('animations', html='jshtml')"),
     "matplotlib: the rc group's name in the plural"),
    (1, ("#@title\ndef get_AB_line(A_pos, B_pos, x_min=-1000, x_max=+1000):\n    rise = B_pos[1] - A_pos[1]\n"
         "    run = B_pos[0] - A_pos[0]\n    slope = rise / run\n    offset = A_pos[1] - slope * A_pos[0]\n"
         "    return [x_min, x_max], [x_min * slope + offset, x_max * slope + offset]\n\n"
         'def plot_AB_line(A_pos, B_pos, A_name="A", B_name="B"):\n'
         '    for point, name in ((A_pos, A_name), (B_pos, B_name)):\n        plt.plot(point[0], point[1], "bo")\n'
         "        plt.text(point[0] - 0.35, point[1], name, fontsize=14)\n    xs, ys = get_AB_line(A_pos, B_pos)\n"
         "    plt.plot(xs, ys)\n\ndef plot_rise_over_run(A_pos, B_pos):\n"
         '    plt.plot([A_pos[0], B_pos[0]], [A_pos[1], A_pos[1]], "k--")\n'
         '    plt.text((A_pos[0] + B_pos[0]) / 2, A_pos[1] - 0.4, "run", fontsize=14)\n'
         '    plt.plot([B_pos[0], B_pos[0]], [A_pos[1], B_pos[1]], "k--")\n'
         '    plt.text(B_pos[0] + 0.2, (A_pos[1] + B_pos[1]) / 2, "rise", fontsize=14)\n\n'
         'def show(axis="equal", ax=None, title=None, xlabel="$x$", ylabel="$y$"):\n    ax = ax or plt.gca()\n'
         "    ax.axis(axis)\n    ax.grid()\n    ax.set_title(title, fontsize=14)\n"
         "    ax.set_xlabel(xlabel, fontsize=14)\n    ax.set_ylabel(ylabel, fontsize=14, rotation=0)\n"
         "    ax.axhline(y=0, color='k')\n    ax.axvline(x=0, color='k')\n\nA_pos = np.array([1, 1])\n"
         "B_pos = np.array([7, 4])\nplot_AB_line(A_pos, B_pos)\nplot_rise_over_run(A_pos, B_pos)\n"
         'show([0, 8.4, 0], title="Slope = rise / run")'),
     "three axis limits for four"),
    (1, ("#@title\ndef get_AB_line(A_pos, B_pos, x_min=-1000, x_max=+1000):\n    rise = B_pos[1] - A_pos[1]\n"
         "    run = B_pos[0] - A_pos[0]\n    slope = rise / run\n    offset = A_pos[1] - slope * A_pos[0]\n"
         "    return [x_min, x_max], [x_min * slope + offset, x_max * slope + offset]\n\n"
         'def plot_AB_line(A_pos, B_pos, A_name="A", B_name="B"):\n'
         '    for point, name in ((A_pos, A_name), (B_pos, B_name)):\n        plt.plot(point[0], point[1], "bo")\n'
         "        plt.text(point[0] - 0.35, point[1], name, fontsize=14)\n    xs, ys = get_AB_line(A_pos, B_pos)\n"
         "    plt.plot(xs, ys)\n\ndef plot_rise_over_run(A_pos, B_pos):\n"
         '    plt.plot([A_pos[0], B_pos[0]], [A_pos[1], A_pos[1]], "k--")\n'
         '    plt.text((A_pos[0] + B_pos[0]) / 2, A_pos[1] - 0.4, "run", fontsize=14)\n'
         '    plt.plot([B_pos[0], B_pos[0]], [A_pos[1], B_pos[1]], "k--")\n'
         '    plt.text(B_pos[0] + 0.2, (A_pos[1] + B_pos[1]) / 2, "rise", fontsize=14)\n\n'
         'def show(axis="equal", ax=None, title=None, xlabel="$x$", ylabel="$y$"):\n    ax = ax or plt.gca()\n'
         "    ax.axis(axis)\n    ax.grid()\n    ax.set_title(title, fontsize=14)\n"
         "    ax.set_xlabel(xlabel, fontsize=14)\n    ax.set_ylabel(ylabel, fontsize=14, rotation=0)\n"
         "    ax.axhline(y=0, color='k')\n    ax.axvline(x=0, color='k')\n\nA_pos = np.array([1, 1])\n"
         "B_pos = np.array([1, 4])\nplot_AB_line(A_pos, B_pos)\nplot_rise_over_run(A_pos, B_pos)\n"
         'show([0, 8.4, 0, 5.5], title="Slope = rise / run")'),
     "a point above A (runs: a zero run, the slope inf with a warning)"),
    (2, ('#@title\nxs = np.linspace(-2.1, 2.1, 500)\nys = xs^2\nplt.plot(xs, ys)\n\nplt.plot([0, 0], [0, 3], "k--")\n'
         "plt.arrow(-1.4, 2.5, 0.5, -1.3, head_width=0.1)\nplt.arrow(0.85, 1.05, 0.5, 1.3, head_width=0.1)\n"
         'show([-2.1, 2.1, 0, 2.8], title="Slope of the curve $y = x^2$")'),
     "^ (xor) for the power"),
    (2, ("#@title\nxs = np.linspace(-2.1, 2.1, 500)\nys = xs**2\nplt.plot(xs, ys)\n\n"
         'plt.plot([0, 0], [0, 3], "k--")\nplt.arrow(-1.4, 2.5, 0.5, -1.3, head_width=0.1)\n'
         "plt.arrow(0.85, 1.05, 0.5, 1.3, headwidth=0.1)\n"
         'show([-2.1, 2.1, 0, 2.8], title="Slope of the curve $y = x^2$")'),
     "matplotlib: annotate's arrow keyword given to arrow"),
    (3, ("#@title\ndef animate_AB_line(f, fp, f_str, x_A, axis=None):\n    y_A = f(x_A)\n    eps = 1e-4\n"
         "    x_B_range = 1.5\n    x_B = x_A + eps\n\n    n_frames = 200\n    text_offset_A = -0.2\n"
         "    text_offset_B = +0.1\n    x_min, x_max = -1000, 1000\n\n    fig, ax = plt.subplots()\n\n"
         "    # plot f(x)\n    xs = np.linspace(-2.1, 2.1, 500)\n    ys = f(xs)\n    ax.plot(xs, ys)\n\n"
         "    # plot the tangent to the curve at point A\n    if fp:\n        slope = fp(x_A)\n"
         "        offset = y_A - slope * x_A\n"
         '        ax.plot([x_min, x_max], [slope*x_min + offset, slope*x_max + offset],\n                "y--")\n\n'
         "    # plot the line AB and the labels A and B so they can be animated\n    y_A = f(x_A)\n    y_B = f(x_B)\n"
         '    xs, ys = get_AB_line([x_A, y_A], [x_B, y_B])\n    line_inf, = ax.plot(xs, ys, "-")\n'
         '    line_AB, = ax.plot([x_A, x_B], [y_A, y_B], "bo-")\n'
         '    ax.text(x_A + text_offset_A, y_A, "A", fontsize=14)\n'
         '    B_text = ax.text(x_B + text_offset_B, y_B, "B", fontsize=14)\n\n    # plot the grid and axis labels\n'
         '    title = r"Slope of the curve $y = {}$ at $x_\\mathrm{{A}} = {}$".format(f_str, x_A)\n'
         "    show(axis or [-2.1, 2.1, 0, 2.8], title=title)\n\n    def update_graph(i):\n"
         "        x_B = x_A + x_B_range * np.cos(i * 2 * np.pi / n_frames) ** 3\n"
         "        if np.abs(x_B - x_A) < eps:\n            x_B = x_A + eps # to avoid division by 0\n"
         "        y_B = f(x_B)\n        xs, ys = get_AB_line([x_A, y_A], [x_B, y_B])\n"
         "        line_inf.set_data(xs, ys)\n        line_AB.set_data([x_A, x_B], [y_A, y_B])\n"
         "        B_text.set_position([x_B + text_offset_B, y_B])\n        return line_inf, line_AB\n\n"
         "    anim = animation.FuncAnimation(fig, update_graph,\n"
         "                                  init_func=lambda: update_graph(0),\n"
         "                                  frames=n_frames,\n                                  interval=20,\n"
         "                                  blit=True)\n    plt.close()\n    return anim\n\n"
         'animate_AB_line(lambda x: x**2, "x^2", lambda x: 2*x, -1)'),
     "the derivative and its label in the wrong order"),
    (4, '#@title\nanimate_AB_line(lambda x: np.abs(x), None, "|x|")',
     "the point's x left out"),
    (5, ('#@title\nanimate_AB_line(lambda x: np.cuberoot(x), None, r"\\sqrt[3]{x}", 0,\n'
         "                axis=[-2.1, 2.1, -1.4, 1.4])"),
     "numpy's cube root misspelt"),
    (5, ('#@title\nanimate_AB_line(lambda x: x**(1/3), None, r"\\sqrt[3]{x}", 0,\n'
         "                axis=[-2.1, 2.1, -1.4, 1.4])"),
     "the cube root as a power of 1/3 (runs: NaN for x < 0)"),
    (6, ("#@title\ndef animate_tangent(f, fp, f_str):\n    n_frames = 200\n    x_min, x_max = -1000, 1000\n\n"
         "    fig, ax1, ax2 = plt.subplots(2, 1, figsize=(5, 8), sharex=True)\n\n    # plot f\n"
         "    xs = np.linspace(-2.1, 2.1, 500)\n    ys = f(xs)\n    ax1.plot(xs, ys)\n\n    # plot tangent\n"
         "    line_tangent, = ax1.plot([x_min, x_max], [0, 0])\n\n    # plot f'\n"
         '    xs = np.linspace(-2.1, 2.1, 500)\n    ys = fp(xs)\n    ax2.plot(xs, ys, "r-")\n\n    # plot points A\n'
         '    point_A1, = ax1.plot(0, 0, "bo")\n    point_A2, = ax2.plot(0, 0, "bo")\n\n'
         '    show([-2.1, 2.1, 0, 2.8], ax=ax1, ylabel="$f(x)$",\n'
         '        title=r"$y=f(x)=" + f_str + "$ and the tangent at $x=x_\\mathrm{A}$")\n'
         "    show([-2.1, 2.1, -4.2, 4.2], ax=ax2, ylabel=\"$f'(x)$\",\n"
         "        title=r\"y=f'(x) and the slope of the tangent at $x=x_\\mathrm{A}$\")\n\n    def update_graph(i):\n"
         "        x = 1.5 * np.sin(2 * np.pi * i / n_frames)\n        f_x = f(x)\n        df_dx = fp(x)\n"
         "        offset = f_x - df_dx * x\n        line_tangent.set_data([x_min, x_max],\n"
         "                              [df_dx * x_min + offset, df_dx * x_max + offset])\n"
         "        point_A1.set_data(x, f_x)\n        point_A2.set_data(x, df_dx)\n"
         "        return line_tangent, point_A1, point_A2\n\n    anim = animation.FuncAnimation(fig, update_graph,\n"
         "                                  init_func=lambda: update_graph(0),\n"
         "                                  frames=n_frames,\n                                  interval=20,\n"
         "                                  blit=True)\n    plt.close()\n    return anim\n\ndef f(x):\n"
         '  return x**2\n\ndef fp(x):\n  return 2*x\n\nanimate_tangent(f, fp, "x^2")'),
     "the two Axes not grouped in a tuple"),
    (8, ("#@title\ndef f(x):\n  return 1/4 * x**4 - x**2 + 1/2\n\nxs = np.linspace(-2.1, 2.1, 500)\nys = f(xs)\n"
         'plt.plot(xs, ys)\nplt.plot([np.sqrt(2), np.sqrt(2)], [0, f(np.sqrt(2))], "k--")\n'
         'plt.plot([-np.sqrt(2), -np.sqrt(2)], [0, f(-np.sqrt(2))], "k--")\n'
         'plt.text(-np.sqrt(2), 0.1, r"$-\\sqrt{2}$",\n         fontsize=14, horizontalalignment="center")\n'
         'plt.text(np.sqrt(2), 0.1, r"$\\sqrt{2}$",\n         fontsize=14, horizontalalignment="middle")\n'
         'show(axis=[-2.1, 2.1, -1.4, 1.4], title=r"$y=f(x)=\\dfrac{1}{4}x^4 - x^2 + 5$")'),
     "matplotlib: an alignment value of another toolkit"),
    (9, ("#@title\ndef f(x):\n  return x**3\n\nxs = np.linspace(-1.05, 1.05, 0.01)\nys = f(xs)\nplt.plot(xs, ys)\n"
         'show(axis=[-1.05, 1.05, -0.7, 0.7], title=r"$f(x)=x^3$")'),
     "a step for linspace's count"),
    (11, ("#@title\ndef plot_3d(f, title):\n    fig = plt.figure(figsize=(8, 5))\n"
          "    ax = fig.add_subplot(111, projection='3d')\n\n    xs = np.linspace(-2.1, 2.1, 100)\n"
          "    ys = np.linspace(-2.1, 2.1, 100)\n    xs, ys = np.meshgrid(xs, ys)\n    zs = f(xs, ys)\n\n"
          '    surface = ax.plot_surface(xs, ys, zs,\n                              cmap="cool_warm",\n'
          "                              linewidth=0.3, edgecolor='k')\n\n    ax.set_xlabel(\"$x$\", fontsize=14)\n"
          '    ax.set_ylabel("$y$", fontsize=14)\n    ax.set_zlabel("$z$", fontsize=14)\n'
          "    ax.set_title(title, fontsize=14)\n    return ax\n\ndef plot_tangents(ax, x_A, y_A, f, df_dx, df_dy):\n"
          '    ax.plot3D([x_A], [y_A], f(x_A, y_A), "bo", zorder=10)\n    x_min, x_max = -2.1, 2.1\n'
          "    slope_x = df_dx(x_A, y_A)\n    offset_x = f(x_A, y_A) - slope_x * x_A\n"
          "    ax.plot3D([x_min, x_max], [y_A, y_A],\n"
          '              [slope_x * x_min + offset_x, slope_x * x_max + offset_x], "b-.",\n              zorder=5)\n'
          "    y_min, y_max = -2.1, 2.1\n    slope_y = df_dy(x_A, y_A)\n    offset_y = f(x_A, y_A) - slope_y * y_A\n"
          "    ax.plot3D([x_A, x_A], [y_min, y_max],\n"
          '              [slope_y * y_min + offset_y, slope_y * y_max + offset_y], "r-",\n              zorder=5)\n\n'
          "def f(x, y):\n    return np.sin(x * y)\n\ndef df_dx(x, y):\n    return y * np.cos(x * y)\n\n"
          'def df_dy(x, y):\n    return x * np.cos(x * y)\n\nax = plot_3d(f, r"$z = f(x, y) = \\sin(xy)$")\n'
          "plot_tangents(ax, 0.1, -1, f, df_dx, df_dy)\n\nplt.show()"),
     "matplotlib: a colormap's name misspelt"),
    (11, ("#@title\ndef plot_3d(f, title):\n    fig = plt.figure(figsize=(8, 5))\n"
          "    ax = fig.add_subplot(111, projection='3d')\n\n    xs = np.linspace(-2.1, 2.1, 100)\n"
          "    ys = np.linspace(-2.1, 2.1, 100)\n    xs, ys = np.meshgrid(xs, ys)\n    zs = f(xs, ys)\n\n"
          '    surface = ax.plot_surface(xs, ys, zs,\n                              cmap="coolwarm",\n'
          "                              linewidth=0.3, edgecolor='k')\n\n    ax.set_xlabel(\"$x$\", fontsize=14)\n"
          '    ax.set_ylabel("$y$", fontsize=14)\n    ax.set_zlabel("$z$", fontsize=14)\n'
          "    ax.set_title(title, fontsize=14)\n    return ax\n\ndef plot_tangents(ax, x_A, y_A, f, df_dx, df_dy):\n"
          '    ax.plot3D([x_A], [y_A], f(x_A, y_A), "bo", zorder=10)\n    x_min, x_max = -2.1, 2.1\n'
          "    slope_x = df_dx(x_A, y_A)\n    offset_x = f(x_A, y_A) - slope_x * x_A\n"
          "    ax.plot3D([x_min, x_max], [y_A, y_A],\n"
          '              [slope_x * x_min + offset_x, slope_x * x_max + offset_x], "b-.",\n              zorder=5)\n'
          "    y_min, y_max = -2.1, 2.1\n    slope_y = df_dy(x_A, y_A)\n    offset_y = f(x_A, y_A) - slope_y * y_A\n"
          "    ax.plot3D([x_A, x_A], [y_min, y_max],\n"
          '              [slope_y * y_min + offset_y, slope_y * y_max + offset_y], "r-",\n              zorder=5)\n\n'
          "def f(x, y):\n    return np.sin(x * y)\n\ndef df_dx(x, y):\n    return y * np.cos(x * y)\n\n"
          'def df_dy(x, y):\n    return x * np.cos(x * y)\n\nax = plot_3d(f, r"$z = f(x, y) = \\sin(xy)$")\n'
          "plot_tangents(ax, 0.1, -1, f, df_dy, df_dx)\n\nplt.show()"),
     "the two partial derivatives swapped (runs)"),
    (12, ("#@title\nangle = np.pi/5\nA_pos = [np.cos(angle), np.sin(angle)]\n\n"
          "fig, ax = plt.subplots(figsize=(6, 6))\n\nfrom functools import partial\n"
          'ax_text = partial(ax.text, color="w", fontsize=18, zorder=4,\n'
          "                  horizontalalignment='center', verticalalignment='center')\n\n"
          "circle = plt.Circle(0, 0, 1,\n"
          "                    zorder=0, facecolor='w', edgecolor='k', linestyle=\"--\")\n"
          "triangle1 = plt.Polygon([[0, 0], [1, np.tan(angle)], [1, 0]],\n"
          "                        zorder=1, facecolor='r', edgecolor='k')\n"
          "arc_points = np.array([[0, 0]] + [[np.cos(a), np.sin(a)] \n"
          "              for a in np.linspace(0, angle, 50)])\nax.fill(arc_points[:, 0], arc_points[:, 1],\n"
          "        zorder=2, facecolor='c', edgecolor='k')\ntriangle2 = plt.Polygon([[0, 0], A_pos, [A_pos[0], 0]],\n"
          "                        zorder=3, facecolor='b', edgecolor='k')\n"
          'ax_text(2*np.cos(angle)/3, np.sin(angle)/4, "A")\nax_text((1+np.cos(angle))/2, np.sin(angle)/4, "B")\n'
          'ax_text((1+np.cos(angle))/2, 0.9*np.sin(angle), "C")\n'
          'ax_text(0.25*np.cos(angle/2), 0.25*np.sin(angle/2), r"$\\theta$")\n'
          "arc = mpl.patches.Arc([0, 0], 2*0.2, 2*0.2, theta1=0, theta2=angle*180/np.pi,\n"
          "                      zorder=5, color='y', linewidth=3)\nax_text(0.03, -0.05, \"0\", color='k')\n"
          "ax_text(1.03, -0.05, \"1\", color='k')\n\nax.axhline(y=0, color='k', zorder=4)\n"
          "ax.axvline(x=0, color='k', zorder=4)\nax.axvline(x=1, color='k', zorder=4, linewidth=1, linestyle='--')\n"
          "ax.axis('equal')\nax.axis([-0.1, 1.1, -0.1, 1.1])\nax.axis('off')\nax.add_artist(circle)\n"
          "ax.add_artist(triangle1)\nax.add_artist(triangle2)\nax.add_patch(arc)\nplt.show()"),
     "the centre's coordinates not in a tuple"),
    (12, ("#@title\nangle = np.pi/5\nA_pos = [np.cos(angle), np.sin(angle)]\n\n"
          "fig, ax = plt.subplots(figsize=(6, 6))\n\nfrom functools import partial\n"
          'ax_text = partial(ax.text, color="w", fontsize=18, zorder=4,\n'
          "                  horizontalalignment='center', verticalalignment='center')\n\n"
          "circle = plt.Circle((0, 0), 1,\n"
          "                    zorder=0, facecolor='w', edgecolor='k', linestyle=\"--\")\n"
          "triangle1 = plt.Polygon([[0, 0], [1, np.tan(angle)], [1, 0]],\n"
          "                        zorder=1, facecolor='r', edgecolor='k')\n"
          "arc_points = np.array([[0, 0]] + [[np.cos(a), np.sin(a)] \n"
          "              for a in np.linspace(0, angle, 50)])\nax.fill(arc_points[:, 0], arc_points[:, 1],\n"
          "        zorder=2, facecolor='c', edgecolor='k')\ntriangle2 = plt.Polygon([[0, 0], A_pos, [A_pos[0], 0]],\n"
          "                        zorder=3, facecolor='b', edgecolor='k')\n"
          'ax_text(2*np.cos(angle)/3, np.sin(angle)/4, "A")\nax_text((1+np.cos(angle))/2, np.sin(angle)/4, "B")\n'
          'ax_text((1+np.cos(angle))/2, 0.9*np.sin(angle), "C")\n'
          'ax_text(0.25*np.cos(angle/2), 0.25*np.sin(angle/2), r"$\\theta$")\n'
          "arc = mpl.patches.Arc([0, 0], 2*0.2, 2*0.2, theta1=0, theta2=angle,\n"
          "                      zorder=5, color='y', linewidth=3)\nax_text(0.03, -0.05, \"0\", color='k')\n"
          "ax_text(1.03, -0.05, \"1\", color='k')\n\nax.axhline(y=0, color='k', zorder=4)\n"
          "ax.axvline(x=0, color='k', zorder=4)\nax.axvline(x=1, color='k', zorder=4, linewidth=1, linestyle='--')\n"
          "ax.axis('equal')\nax.axis([-0.1, 1.1, -0.1, 1.1])\nax.axis('off')\nax.add_artist(circle)\n"
          "ax.add_artist(triangle1)\nax.add_artist(triangle2)\nax.add_patch(arc)\nplt.show()"),
     "the arc's angle in radians for degrees (runs)"),
]
# ageron/handson-ml3's chapter 9 (unsupervised learning: iris, make_blobs, make_moons, the ladybug image
# and scikit-learn's bundled digits into k-means, DBSCAN, agglomerative clustering and Gaussian mixtures,
# matplotlib's plots): written down before any run of the guard, from the notebook's sources alone
# (held out); code cells from 0
HOML3_CH09 = [
    (4, ("# extra code – this cell generates and saves Figure 9–1\n\nimport matplotlib.pyplot as plt\n"
         "from sklearn.datasets import load_iris\n\ndata = load_iris()\nX = data.data\ny = data.target\n"
         "data.target_names\n\nplt.figure(figsize=(9, 3.5))\n\nplt.subplot(121)\n"
         'plt.plot(X[y==0, 2], X[y==0, 3], "yo", lable="Iris setosa")\n'
         'plt.plot(X[y==1, 2], X[y==1, 3], "bs", label="Iris versicolor")\n'
         'plt.plot(X[y==2, 2], X[y==2, 3], "g^", label="Iris virginica")\nplt.xlabel("Petal length")\n'
         'plt.ylabel("Petal width")\nplt.grid()\nplt.legend()\n\nplt.subplot(122)\n'
         'plt.scatter(X[:, 2], X[:, 3], c="k", marker=".")\nplt.xlabel("Petal length")\n'
         "plt.tick_params(labelleft=False)\nplt.gca().set_axisbelow(True)\nplt.grid()\n\n"
         'save_fig("classification_vs_clustering_plot")\nplt.show()'),
     "matplotlib: misspelt keyword"),
    (5, ("# extra code\n\nimport numpy as np\nfrom scipy import stats\n"
         "from sklearn.mixture import GaussianMixture\n\n"
         "y_pred = GaussianMixture(n_components=3, random_state=42).fit(X).predict(X)\n\nmapping = {}\n"
         "for class_id in np.unique(y):\n    mode, _ = stats.mode(y_pred[y==class_id])\n"
         "    mapping[mode[0]] = class_id\n\ny_pred = np.array([mapping[cluster_id] for cluster_id in y_pred])\n"
         '\nplt.plot(X[y_pred==0, 2], X[y_pred==0, 3], "yo", label="Cluster 1")\n'
         'plt.plot(X[y_pred==1, 2], X[y_pred==1, 3], "bs", label="Cluster 2")\n'
         'plt.plot(X[y_pred==2, 2], X[y_pred==2, 3], "g^", label="Cluster 3")\nplt.xlabel("Petal length")\n'
         'plt.ylabel("Petal width")\nplt.legend(loc="upper left")\nplt.grid()\nplt.show()'),
     "scipy 1.11's mode: a scalar indexed (in a loop)"),
    (7, ("from sklearn.cluster import KMeans\nfrom sklearn.datasets import make_blobs\n\n"
         "# extra code – the exact arguments of make_blobs() are not important\n"
         "blob_centers = np.array([[ 0.2,  2.3], [-1.5 ,  2.3], [-2.8,  1.8],\n"
         "                         [-2.8,  2.8], [-2.8,  1.3]])\nblob_std = np.array([0.4, 0.3, 0.1, 0.1])\n"
         "X, y = make_blobs(n_samples=2000, centers=blob_centers, cluster_std=blob_std,\n"
         "                  random_state=7)\n\nk = 5\n"
         "kmeans = KMeans(n_clusters=k, n_init=10, random_state=42)\ny_pred = kmeans.fit_predict(X)"),
     "a parameter of another length (4 stds for 5 centers)"),
    (13, ("import numpy as np\n\nX_new = np.array([[0, 2], [3, 2], [-3, 3], [-3, 2.5]])\nkmeans.predict(X_new[0])"),
     "1-D X to predict"),
    (14, ("# extra code – this cell generates and saves Figure 9–3\n\ndef plot_data(X):\n"
          "    plt.plot(X[:, 0], X[:, 1], 'k.', markersize=2)\n\n"
          "def plot_centroids(centroids, weights=None, circle_color='w', cross_color='k'):\n"
          "    if weights is not None:\n        centroids = centroids[weights > weights.max() / 10]\n"
          "    plt.scatter(centroids[:, 0], centroids[:, 1],\n                marker='o', s=35, linewidths=8,\n"
          "                color=circle_color, zorder=10, alpha=0.9)\n"
          "    plt.scatter(centroids[:, 0], centroids[:, 1],\n                marker='x', s=2, linewidths=12,\n"
          "                color=cross_color, zorder=11, alpha=1)\n\n"
          "def plot_decision_boundaries(clusterer, X, resolution=1000, show_centroids=True,\n"
          "                             show_xlabels=True, show_ylabels=True):\n    mins = X.min(axis=0) - 0.1\n"
          "    maxs = X.max(axis=0) + 0.1\n    xx, yy = np.meshgrid(np.linspace(mins[0], maxs[0], resolution),\n"
          "                         np.linspace(mins[1], maxs[1], resolution))\n"
          "    Z = clusterer.predict(np.c_[xx.ravel(), yy.ravel()])\n    Z = Z.reshape(xx.shape)\n\n"
          '    plt.contourf(Z, extent=(mins[0], maxs[0], mins[1], maxs[1]),\n                cmap="Pastel")\n'
          "    plt.contour(Z, extent=(mins[0], maxs[0], mins[1], maxs[1]),\n"
          "                linewidths=1, colors='k')\n    plot_data(X)\n    if show_centroids:\n"
          "        plot_centroids(clusterer.cluster_centers_)\n\n    if show_xlabels:\n"
          '        plt.xlabel("$x_1$")\n    else:\n        plt.tick_params(labelbottom=False)\n'
          '    if show_ylabels:\n        plt.ylabel("$x_2$", rotation=0)\n    else:\n'
          "        plt.tick_params(labelleft=False)\n\nplt.figure(figsize=(8, 4))\n"
          'plot_decision_boundaries(kmeans, X)\nsave_fig("voronoi_plot")\nplt.show()'),
     "matplotlib: misspelt colormap name (in the cell's function)"),
    (17, ("# extra code – this cell generates and saves Figure 9–4\n\n"
          'kmeans_iter1 = KMeans(n_clusters=5, init="randon", n_init=1, max_iter=1,\n'
          "                      random_state=5)\n"
          'kmeans_iter2 = KMeans(n_clusters=5, init="random", n_init=1, max_iter=2,\n'
          "                      random_state=5)\n"
          'kmeans_iter3 = KMeans(n_clusters=5, init="random", n_init=1, max_iter=3,\n'
          "                      random_state=5)\nkmeans_iter1.fit(X)\nkmeans_iter2.fit(X)\nkmeans_iter3.fit(X)\n"
          "\nplt.figure(figsize=(10, 8))\n\nplt.subplot(321)\nplot_data(X)\n"
          "plot_centroids(kmeans_iter1.cluster_centers_, circle_color='r', cross_color='w')\n"
          'plt.ylabel("$x_2$", rotation=0)\nplt.tick_params(labelbottom=False)\n'
          'plt.title("Update the centroids (initially randomly)")\n\nplt.subplot(322)\n'
          "plot_decision_boundaries(kmeans_iter1, X, show_xlabels=False,\n"
          '                         show_ylabels=False)\nplt.title("Label the instances")\n\nplt.subplot(323)\n'
          "plot_decision_boundaries(kmeans_iter1, X, show_centroids=False,\n"
          "                         show_xlabels=False)\nplot_centroids(kmeans_iter2.cluster_centers_)\n\n"
          "plt.subplot(324)\nplot_decision_boundaries(kmeans_iter2, X, show_xlabels=False,\n"
          "                         show_ylabels=False)\n\nplt.subplot(325)\n"
          "plot_decision_boundaries(kmeans_iter2, X, show_centroids=False)\n"
          "plot_centroids(kmeans_iter3.cluster_centers_)\n\nplt.subplot(326)\n"
          'plot_decision_boundaries(kmeans_iter3, X, show_ylabels=False)\n\nsave_fig("kmeans_algorithm_plot")\n'
          "plt.show()"),
     "misspelt parameter value"),
    (24, ("# extra code\nX_dist = kmeans.transform(X)\n(X_dist[np.arange(len(X_dist)), kmeans.labels] ** 2).sum()"),
     "misspelt attribute"),
    (43, ("# extra code – this cell generates and saves Figure 9–9\n\n"
          "silhouette_scores = [silhouette_score(X, model.labels_)\n"
          "                     for model in kmeans_per_k]\n\nplt.figure(figsize=(8, 3))\n"
          'plt.plot(range(2, 10), silhouette_scores, "bo-")\nplt.xlabel("$k$")\nplt.ylabel("Silhouette score")\n'
          'plt.axis([1.8, 8.5, 0.55, 0.7])\nplt.grid()\nsave_fig("silhouette_score_vs_k_plot")\nplt.show()'),
     "a score refused for one cluster (the [1:] left out, in a comprehension)"),
    (44, ("# extra code – this cell generates and saves Figure 9–10\n\n"
          "from sklearn.metrics import silhouette_samples\n"
          "from matplotlib.ticker import FixedLocator, FixedFormatter\n\nplt.figure(figsize=(11, 9))\n\n"
          "for k in (3, 4, 5, 6):\n    plt.subplot(2, 2, k - 2)\n    \n    y_pred = kmeans_per_k[k - 1].labels_\n"
          "    silhouette_coefficients = silhouette_samples(X, y_pred)\n\n    padding = len(X) // 30\n"
          "    pos = padding\n    ticks = []\n    for i in range(k):\n"
          "        coeffs = silhouette_coefficients[y_pred == i]\n        coeffs.sort()\n\n"
          '        color = plt.cm.get_cmap("Spectral")(i / k)\n'
          "        plt.fill_betweenx(np.arange(pos, pos + len(coeffs)), 0, coeffs,\n"
          "                          facecolor=color, edgecolor=color, alpha=0.7)\n"
          "        ticks.append(pos + len(coeffs) // 2)\n        pos += len(coeffs) + padding\n\n"
          "    plt.gca().yaxis.set_major_locator(FixedLocator(ticks))\n"
          "    plt.gca().yaxis.set_major_formatter(FixedFormatter(range(k)))\n    if k in (3, 5):\n"
          '        plt.ylabel("Cluster")\n    \n    if k in (5, 6):\n'
          "        plt.gca().set_xticks([-0.1, 0, 0.2, 0.4, 0.6, 0.8, 1])\n"
          '        plt.xlabel("Silhouette Coefficient")\n    else:\n        plt.tick_params(labelbottom=False)\n'
          '\n    plt.axvline(x=silhouette_scores[k - 2], color="red", linestyle="--")\n'
          '    plt.title(f"$k={k}$")\n\nsave_fig("silhouette_analysis_plot")\nplt.show()'),
     "an API matplotlib 3.9 removed (in a loop)"),
    (48, ("X = image.reshape(-1, 3)\nkmeans = KMeans(n_clusters=8, n_init=10, random_state=42).fit(image)\n"
          "segmented_img = kmeans.cluster_centers_[kmeans.labels_]\n"
          "segmented_img = segmented_img.reshape(image.shape)"),
     "3-D X (the reshaped array not used)"),
    (49, ("# extra code – this cell generates and saves Figure 9–12\n\nsegmented_imgs = []\n"
          "n_colors = (10, 8, 6, 4, 2)\nfor n_clusters in n_colors:\n"
          "    kmeans = KMeans(n_clusters=n_clusters, n_init=10, random_state=42).fit(X)\n"
          "    segmented_img = kmeans.cluster_centers_[kmeans.labels_]\n"
          "    segmented_imgs.append(segmented_image.reshape(image.shape))\n\nplt.figure(figsize=(10, 5))\n"
          "plt.subplots_adjust(wspace=0.05, hspace=0.1)\n\nplt.subplot(2, 3, 1)\nplt.imshow(image)\n"
          "plt.title(\"Original image\")\nplt.axis('off')\n\nfor idx, n_clusters in enumerate(n_colors):\n"
          "    plt.subplot(2, 3, 2 + idx)\n    plt.imshow(segmented_imgs[idx] / 255)\n"
          "    plt.title(f\"{n_clusters} colors\")\n    plt.axis('off')\n\n"
          "save_fig('image_segmentation_plot', tight_layout=False)\nplt.show()"),
     "misspelt name (in a loop)"),
    (51, ("from sklearn.linear_model import LogisticRegression\n\nn_labeled = 50\n"
          "log_reg = LogisticRegression(max_iter=10_000)\nlog_reg.fit(X_train[:n_labeled], y_train)"),
     "X and y of different lengths"),
    (58, ("y_train_propagated = np.empty(len(X_train), dtype=np.int)\nfor i in range(k):\n"
          "    y_train_propagated[kmeans.labels_ == i] = y_representative_digits[i]"),
     "an API numpy 1.24 removed"),
    (61, ("percentile_closest = 99\n\nX_cluster_dist = X_digits_dist[np.arange(len(X_train)), kmeans.labels_]\n"
          "for i in range(k):\n    in_cluster = (kmeans.labels_ == i)\n"
          "    cluster_dist = X_cluster_dist[in_cluster]\n"
          "    cutoff_distance = np.quantile(cluster_dist, percentile_closest)\n"
          "    above_cutoff = (X_cluster_dist > cutoff_distance)\n"
          "    X_cluster_dist[in_cluster & above_cutoff] = -1\n\npartially_propagated = (X_cluster_dist != -1)\n"
          "X_train_partially_propagated = X_train[partially_propagated]\n"
          "y_train_partially_propagated = y_train_propagated[partially_propagated]"),
     "a percent where a fraction goes (quantile for percentile, in a loop)"),
    (62, ("log_reg = LogisticRegression(max_iter=10_000)\n"
          "log_reg.fit(X_train_partially_propagated, y_train_propagated)\nlog_reg.score(X_test, y_test)"),
     "X and y of different lengths (the labels not filtered)"),
    (68, ("# extra code – this cell generates and saves Figure 9–14\n\n"
          "def plot_dbscan(dbscan, X, size, show_xlabels=True, show_ylabels=True):\n"
          "    core_mask = np.zeros_like(dbscan.labels_, dtype=bool)\n"
          "    core_mask[dbscan.core_sample_indices_] = True\n    anomalies_mask = dbscan.labels_ == -1\n"
          "    non_core_mask = ~(core_mask | anomalies_mask)\n\n    cores = dbscan.components_\n"
          "    anomalies = X[anomalies_mask]\n    non_cores = X[non_core_mask]\n    \n"
          "    plt.scatter(cores[:, 0], cores[:, 1],\n"
          "                c=dbscan.labels_, marker='o', s=size, cmap=\"Paired\")\n"
          "    plt.scatter(cores[:, 0], cores[:, 1], marker='*', s=20,\n"
          "                c=dbscan.labels_[core_mask])\n    plt.scatter(anomalies[:, 0], anomalies[:, 1],\n"
          '                c="r", marker="x", s=100)\n    plt.scatter(non_cores[:, 0], non_cores[:, 1],\n'
          '                c=dbscan.labels_[non_core_mask], marker=".")\n    if show_xlabels:\n'
          '        plt.xlabel("$x_1$")\n    else:\n        plt.tick_params(labelbottom=False)\n'
          '    if show_ylabels:\n        plt.ylabel("$x_2$", rotation=0)\n    else:\n'
          "        plt.tick_params(labelleft=False)\n"
          '    plt.title(f"eps={dbscan.eps:.2f}, min_samples={dbscan.min_samples}")\n    plt.grid()\n'
          "    plt.gca().set_axisbelow(True)\n\ndbscan2 = DBSCAN(eps=0.2)\ndbscan2.fit(X)\n\n"
          "plt.figure(figsize=(9, 3.2))\n\nplt.subplot(121)\nplot_dbscan(dbscan, X, size=100)\n\n"
          'plt.subplot(122)\nplot_dbscan(dbscan2, X, size=600, show_ylabels=False)\n\nsave_fig("dbscan_plot")\n'
          "plt.show()"),
     "matplotlib: colours of another length (in the cell's function)"),
    (88, "gm = GaussianMixture(n_components=3, n_inits=10, random_state=42)\ngm.fit(X)", "misspelt keyword"),
    (99, ("# extra code – bonus material\n\nresolution = 100\ngrid = np.arange(-10, 10, 1 / resolution)\n"
          "xx, yy = np.meshgrid(grid, grid)\nX_full = np.vstack([xx.ravel(), yy.ravel()])\n\n"
          "pdf = np.exp(gm.score_samples(X_full))\npdf_probas = pdf * (1 / resolution) ** 2\npdf_probas.sum()"),
     "numpy: a transpose forgotten (X of another width)"),
    (101, ("# extra code – this cell generates and saves Figure 9–17\n\n"
           "gm_full = GaussianMixture(n_components=3, n_init=10,\n"
           '                          covariance_type="full", random_state=42)\n'
           "gm_tied = GaussianMixture(n_components=3, n_init=10,\n"
           '                          covariance_type="tied", random_state=42)\n'
           "gm_spherical = GaussianMixture(n_components=3, n_init=10,\n"
           '                               covariance_type="spherical", random_state=42)\n'
           "gm_diag = GaussianMixture(n_components=3, n_init=10,\n"
           '                          covariance_type="diag", random_state=42)\ngm_full.fit(X)\ngm_tied.fit(X)\n'
           "gm_diag.fit(X)\n\ndef compare_gaussian_mixtures(gm1, gm2, X):\n    plt.figure(figsize=(9, 4))\n\n"
           "    plt.subplot(121)\n    plot_gaussian_mixture(gm1, X)\n"
           "    plt.title(f'covariance_type=\"{gm1.covariance_type}\"')\n\n    plt.subplot(122)\n"
           "    plot_gaussian_mixture(gm2, X, show_ylabels=False)\n"
           "    plt.title(f'covariance_type=\"{gm2.covariance_type}\"')\n\n"
           'compare_gaussian_mixtures(gm_tied, gm_spherical, X)\n\nsave_fig("covariance_type_plot")\nplt.show()'),
     "predict before fit (one fit line left out)"),
    (112, ("# extra code – this cell generates and saves Figure 9–21\n\n"
           "X_moons, y_moons = make_moons(n_samples=1000, noise=0.05, random_state=42)\n\n"
           "bgm = BayesianGaussianMixture(n_components=10, n_init=10, random_state=42)\nbgm.fit(X_moons)\n\n"
           'plt.figure(figsize=(9, 3.2))\n\nplt.subplot(121)\nplot_data(X_moons)\nplt.xlabel("$x_1$")\n'
           'plt.ylabel("$x_2$", rotation=0)\nplt.grid()\n\nplt.subplot(122)\n'
           'plot_gaussian_mixture(bgm, X_moons, show_ylabel=False)\n\nsave_fig("moons_vs_bgm_plot")\nplt.show()'),
     "misspelt keyword of the notebook's function"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.11 (k-means on make_blobs, make_moons, the bundled
# digits and scikit-learn's sample image china.jpg, with scipy's mode, seaborn's heatmap and matplotlib's
# plots) and 05.08 (decision trees, bagging and random forests on make_blobs, numpy-made data and the
# bundled digits, with the notebook's helpers_05_08): written down before any run of the guard, from the
# notebooks' sources alone (held out); code cells from 0
PDSH_0511 = [
    (1, ("from sklearn.datasets import make_blobs\nX, y_true = make_blobs(n_samples=300, centres=4,\n"
         "                       cluster_std=0.60, random_state=0)\nplt.scatter(X[:, 0], X[:, 1], s=50);"),
        "misspelt keyword"),
    (2, "from sklearn.cluster import KMeans\nkmeans = KMeans(n_clusters=4)\ny_kmeans = kmeans.predict(X)",
        "predict before fit (the fit line left out)"),
    (3, ("plt.scatter(X[:, 0], X[:, 1], c=y_kmeans, s=50, cmap='viridis')\n\ncenters = kmeans.cluster_centers\n"
         "plt.scatter(centers[:, 0], centers[:, 1], c='black', s=200);"),
        "misspelt attribute"),
    (3, ("plt.scatter(X[:, 0], X[:, 1], c=y_kmeans, s=50, cmap='viridis')\n\ncenters = kmeans.cluster_centers_\n"
         "plt.scatter(centers[:, 0], centers[:, 0], c='black', s=200);"),
        "a column index typed twice (runs)"),
    (4, ("from sklearn.metrics import pairwise_distances_argmin\n\ndef find_clusters(X, n_clusters, rseed=2):\n"
         "    # 1. Randomly choose clusters\n    rng = np.random.RandomState(rseed)\n"
         "    i = rng.permutation(X.shape[0])[:n_clusters]\n    centers = X[i]\n    \n    while True:\n"
         "        # 2a. Assign labels based on closest center\n"
         "        labels = pairwise_distances_argmin(centers, X)\n        \n"
         "        # 2b. Find new centers from means of points\n"
         "        new_centers = np.array([X[labels == i].mean(0)\n"
         "                                for i in range(n_clusters)])\n        \n"
         "        # 2c. Check for convergence\n        if np.all(centers == new_centers):\n            break\n"
         "        centers = new_centers\n    \n    return centers, labels\n\n"
         "centers, labels = find_clusters(X, 4)\nplt.scatter(X[:, 0], X[:, 1], c=labels,\n"
         "            s=50, cmap='viridis');"),
        "arguments swapped (in the cell's function)"),
    (5, ("centers, labels = find_clusters(X, 4, seed=0)\nplt.scatter(X[:, 0], X[:, 1], c=labels,\n"
         "            s=50, cmap='viridis');"),
        "misspelt keyword of the notebook's function"),
    (6, ("labels = KMeans(6, random_state=0).fit_predict(X)\nplt.scatter(X[:, 0], X[:, 1], c=labels,\n"
         "            s=50, cmap='virdis');"),
        "matplotlib: misspelt colormap"),
    (7, "from sklearn.datasets import make_moon\nX, y = make_moons(200, noise=.05, random_state=0)",
        "misspelt name in an import"),
    (8, ("labels = KMeans(2, random_state=0).fit_predict(X)\nplt.scatter(X[:, 0], X[:, 1], c=labels,\n"
         "            s=50, cmap='viridis', marker='dot');"),
        "matplotlib: an invalid marker name"),
    (9, ("from sklearn.cluster import SpectralClustering\n"
         "model = SpectralClustering(n_clusters=2, affinity='nearest_neighbours',\n"
         "                           assign_labels='kmeans')\nlabels = model.fit_predict(X)\n"
         "plt.scatter(X[:, 0], X[:, 1], c=labels,\n            s=50, cmap='viridis');"),
        "misspelt parameter value"),
    (11, ("kmeans = KMeans(n_clusters=10, random_state=0)\nclusters = kmeans.fit_predict(digits)\n"
          "kmeans.cluster_centers_.shape"),
         "the dataset's Bunch for its data array"),
    (12, ("fig, ax = plt.subplots(2, 5, figsize=(8, 3))\ncenters = kmeans.cluster_centers_.reshape(10, 8)\n"
          "for axi, center in zip(ax.flat, centers):\n    axi.set(xticks=[], yticks=[])\n"
          "    axi.imshow(center, interpolation='nearest', cmap=plt.cm.binary)"),
         "numpy: a reshape to a shape of another size"),
    (12, ("fig, ax = plt.subplots(2, 5, figsize=(8, 3))\ncenters = kmeans.cluster_centers_.reshape(10, 8, 8)\n"
          "for axi, center in zip(ax, centers):\n    axi.set(xticks=[], yticks=[])\n"
          "    axi.imshow(center, interpolation='nearest', cmap=plt.cm.binary)"),
         "the axes' array for its flat iterator (in a loop)"),
    (13, ("from scipy.stats import mode\n\nlabels = np.zeros_like(clusters)\nfor i in range(10):\n"
          "    mask = (clusters == i)\n    labels[mask] = mode(digits.target[mask])[0][0]"),
         "scipy: mode's result indexed as before scipy 1.11 (in a loop)"),
    (14, "from sklearn.metrics import accuracy_score\naccuracy_score(digits.targets, labels)",
         "misspelt attribute"),
    (15, ("from sklearn.metrics import confusion_matrix\nimport seaborn as sns\n"
          "mat = confusion_matrix(digits.target, labels)\nsns.heatmap(mat.T, square=True, annot=True, fmt='d',\n"
          "            cbar=False, cmap='blues',\n            xticklabels=digits.target_names,\n"
          "            yticklabels=digits.target_names)\nplt.xlabel('true label')\nplt.ylabel('predicted label');"),
         "seaborn: a colormap name in the wrong case"),
    (16, ("from sklearn.manifold import TSNE\n\n# Project the data: this step will take several seconds\n"
          "tsne = TSNE(n_components=2, init='random',\n"
          "            learning_rate='auto',random_state=0, n_iter=1000)\n"
          "digits_proj = tsne.fit_transform(digits.data)\n\n# Compute the clusters\n"
          "kmeans = KMeans(n_clusters=10, random_state=0)\nclusters = kmeans.fit_predict(digits_proj)\n\n"
          "# Permute the labels\nlabels = np.zeros_like(clusters)\nfor i in range(10):\n"
          "    mask = (clusters == i)\n    labels[mask] = mode(digits.target[mask])[0]\n\n# Compute the accuracy\n"
          "accuracy_score(digits.target, labels)"),
         "a keyword scikit-learn 1.7 removed"),
    (17, ("# Note: this requires the PIL package to be installed\nfrom sklearn.datasets import load_sample_image\n"
          'china = load_sample_image("china.jpeg")\n' "ax = plt.axes(xticks=[], yticks=[])\nax.imshow(china);"),
         "misspelt file name"),
    (19, "data = china // 255.0  # use 0...1 scale\ndata = data.reshape(-1, 3)\ndata.shape",
         "floor division for division (runs)"),
    (21, "plot_pixels(data, titel='Input color space: 16 million possible colors')",
         "misspelt keyword of the notebook's function"),
    (22, ("from sklearn.cluster import MiniBatchKMeans\nkmeans = MiniBatchKMeans(16)\nkmeans.fit(data)\n"
          "new_colors = kmeans.cluster_centers_[kmeans.predict(china)]\n\nplot_pixels(data, colors=new_colors,\n"
          '            title="Reduced color space: 16 colors")'),
         "3-D X to predict (the image for its reshaped pixels)"),
    (23, ("china_recolored = new_colors.reshape(china.shape)\n\nfig, ax = plt.subplots(1, 2, figsize=(16, 6),\n"
          "                       subplot_kw=dict(xticks=[], ytick=[]))\nfig.subplots_adjust(wspace=0.05)\n"
          "ax[0].imshow(china)\nax[0].set_title('Original Image', size=16)\nax[1].imshow(china_recolored)\n"
          "ax[1].set_title('16-color Image', size=16);"),
         "matplotlib: misspelt property"),
]
PDSH_0508 = [
    (1, ("from sklearn.datasets import make_blobs\n\nX, y = make_blobs(n_samples=300, centers=4,\n"
         "                  random_state=0, cluster_std=1.0)\nplt.scatter(X[0], X[1], c=y, s=50, cmap='rainbow');"),
        "matplotlib: colours of another length (rows for columns)"),
    (2, "from sklearn.tree import DecisionTreeClassifier\ntree = DecisionTreeClassifier.fit(X, y)",
        "the estimator's class for an instance (parentheses left out)"),
    (3, ("def visualize_classifier(model, X, y, ax=None, cmap='rainbow'):\n    ax = ax or plt.gca()\n    \n"
         "    # Plot the training points\n    ax.scatter(X[:, 0], X[:, 1], c=y, s=30, cmap=cmap,\n"
         "               clim=(y.min(), y.max()), zorder=3)\n    ax.axis('tight')\n    ax.axis('off')\n"
         "    xlim = ax.get_xlim()\n    ylim = ax.get_ylim()\n    \n    # fit the estimator\n    model.fit(X, y)\n"
         "    xx, yy = np.meshgrid(np.linspace(*xlim, num=200),\n"
         "                         np.linspace(*xlim, num=200))\n"
         "    Z = model.predict(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)\n\n"
         "    # Create a color plot with the results\n    n_classes = len(np.unique(y))\n"
         "    contours = ax.contourf(xx, yy, Z, alpha=0.3,\n"
         "                           levels=np.arange(n_classes + 1) - 0.5,\n"
         "                           cmap=cmap, zorder=1)\n\n    ax.set(xlim=xlim, ylim=ylim)"),
        "a copied line not changed (in the cell's function; runs)"),
    (4, "visualize_classifier(DecisionTreeClassifier(), X, y, cmap='Rainbow')",
        "matplotlib: a colormap name in the wrong case (in an earlier cell's function)"),
    (6, ("# helpers_05_08 is found in the online appendix\nimport helpers_05_08\n"
         "helpers_05_08.randomised_tree_interactive(X, y)"),
        "misspelt function of a module"),
    (7, ("from sklearn.tree import DecisionTreeClassifier\nfrom sklearn.ensemble import BaggingClassifier\n\n"
         "tree = DecisionTreeClassifier()\n"
         "bag = BaggingClassifier(base_estimator=tree, n_estimators=100, max_samples=0.8,\n"
         "                        random_state=1)\n\nbag.fit(X, y)\nvisualize_classifier(bag, X, y)"),
        "a keyword scikit-learn 1.4 removed"),
    (8, ("from sklearn.ensemble import RandomForestClassifier\n\n"
         "model = RandomForestClassifier(n_estimator=100, random_state=0)\nvisualize_classifier(model, X, y);"),
        "misspelt keyword"),
    (9, ("rng = np.random.RandomState(42)\nx = 10 * rng.rand(200)\n\ndef model(x, sigma=0.3):\n"
         "    fast_oscillation = np.sine(5 * x)\n    slow_oscillation = np.sin(0.5 * x)\n"
         "    noise = sigma * rng.randn(len(x))\n\n    return slow_oscillation + fast_oscillation + noise\n\n"
         "y = model(x)\nplt.errorbar(x, y, 0.3, fmt='o');"),
        "numpy: misspelt function (in the cell's function)"),
    (10, ("from sklearn.ensemble import RandomForestRegressor\nforest = RandomForestRegressor(200)\n"
          "forest.fit(x, y)\n\nxfit = np.linspace(0, 10, 1000)\nyfit = forest.predict(xfit[:, None])\n"
          "ytrue = model(xfit, sigma=0)\n\nplt.errorbar(x, y, 0.3, fmt='o', alpha=0.5)\n"
          "plt.plot(xfit, yfit, '-r');\nplt.plot(xfit, ytrue, '-k', alpha=0.5);"),
         "1-D X (the [:, None] left out)"),
    (12, ("# set up the figure\nfig = plt.figure(figsize=(6, 6))  # figure size in inches\n"
          "fig.subplots_adjust(left=0, right=1, bottom=0, top=1, hspace=0.05, wspace=0.05)\n\n"
          "# plot the digits: each image is 8x8 pixels\nfor i in range(64):\n"
          "    ax = fig.add_subplot(8, 8, i, xticks=[], yticks=[])\n"
          "    ax.imshow(digits.images[i], cmap=plt.cm.binary, interpolation='nearest')\n    \n"
          "    # label the image with the target value\n    ax.text(0, 7, str(digits.target[i]))"),
         "matplotlib: a subplot index from 0 (in a loop)"),
    (13, ("from sklearn.model_selection import train_test_split\n\n"
          "Xtrain, Xtest, ytrain, ytest = train_test_split(digits.data, digits.target,\n"
          "                                                random_state=0)\n"
          "model = RandomForestClassifier(n_estimators=1000)\nmodel.fit(Xtrain, ytest)\n"
          "ypred = model.predict(Xtest)"),
         "X and y of different lengths"),
    (15, ("from sklearn.metrics import confusion_matrix\nimport seaborn as sns\n"
          "mat = confusion_matrix(ytest, ypred)\nsns.heatmap(mat.T, square=True, anot=True, fmt='d',\n"
          "            cbar=False, cmap='Blues')\nplt.xlabel('true label')\nplt.ylabel('predicted label');"),
         "seaborn: misspelt keyword"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.12 (Gaussian mixtures on make_blobs, make_moons
# and the bundled digits, after k-means, with scipy's cdist, PCA and matplotlib's ellipses): written down
# before any run of the guard, from the notebook's sources alone (held out); code cells from 0
PDSH_0512 = [
    (1, ("# Generate some data\nfrom sklearn.datasets import make_blobs\n"
         "X, y_true = make_blobs(n_samples=400, centers=4,\n"
         "                       cluster_std=0.60, random_state=0)\nX = X[:, :-1] # flip axes for better plotting"),
        "a slice that drops a column for one that flips them (runs)"),
    (2, ("# Plot the data with k-means labels\nfrom sklearn.cluster import KMeans\n"
         "kmeans = KMeans(4, random_state=0)\nlabels = kmeans.fit(X).labels\n"
         "plt.scatter(X[:, 0], X[:, 1], c=labels, s=40, cmap='viridis');"),
        "a fitted attribute without its trailing underscore"),
    (3, ("from sklearn.cluster import KMeans\nfrom scipy.spatial import cdist\n\n"
         "def plot_kmeans(kmeans, X, n_clusters=4, rseed=0, ax=None):\n    labels = kmeans.fit_predict(X)\n\n"
         "    # plot the input data\n    ax = ax or plt.gca()\n    ax.axis('equal')\n"
         "    ax.scatter(X[:, 0], X[:, 1], c=labels, s=40, cmap='viridis', zorder=2)\n\n"
         "    # plot the representation of the KMeans model\n    centers = kmeans.cluster_centers_\n"
         "    radii = [cdist(X[labels == i], [center]).max()\n             for i, center in enumerate(centers)]\n"
         "    for c, r in zip(centers, radii):\n        ax.add_patch(plt.Circle(c, r, ec='black', fc='lightgray',\n"
         "                                lw=3, alpha=0.5, zorder=1))"),
        "scipy: a function imported from its parent package"),
    (4, "kmeans = KMeans(n_clusters=4, random_state=0)\nplot_kmeans(X, kmeans)",
        "arguments in the wrong order (the notebook's function)"),
    (5, ("rng = np.random.RandomState(13)\nX_stretched = X * rng.randn(2, 2)\n\n"
         "kmeans = KMeans(n_clusters=4, random_state=0)\nplot_kmeans(kmeans, X_stretched)"),
        "numpy: an elementwise product for a matrix product"),
    (6, ("from sklearn.mixture import GMM\ngmm = GMM(n_components=4).fit(X)\nlabels = gmm.predict(X)\n"
         "plt.scatter(X[:, 0], X[:, 1], c=labels, s=40, cmap='viridis');"),
        "an estimator scikit-learn 0.20 removed (the book's first edition)"),
    (7, "probs = gmm.predict_proba(X)\nprint(round(probs[:5], 3))", "numpy: Python's round on an array"),
    (8, ("size = 50 * probs.max(0) ** 2  # square emphasizes differences\n"
         "plt.scatter(X[:, 0], X[:, 1], c=labels, cmap='viridis', s=size);"),
        "wrong axis (sizes of another length)"),
    (9, ("from matplotlib.patch import Ellipse\n\ndef draw_ellipse(position, covariance, ax=None, **kwargs):\n"
         '    """Draw an ellipse with a given position and covariance"""\n    ax = ax or plt.gca()\n    \n'
         "    # Convert covariance to principal axes\n    if covariance.shape == (2, 2):\n"
         "        U, s, Vt = np.linalg.svd(covariance)\n        angle = np.degrees(np.arctan2(U[1, 0], U[0, 0]))\n"
         "        width, height = 2 * np.sqrt(s)\n    else:\n        angle = 0\n"
         "        width, height = 2 * np.sqrt(covariance)\n    \n    # Draw the ellipse\n"
         "    for nsig in range(1, 4):\n        ax.add_patch(Ellipse(position, nsig * width, nsig * height,\n"
         "                             angle, **kwargs))\n        \ndef plot_gmm(gmm, X, label=True, ax=None):\n"
         "    ax = ax or plt.gca()\n    labels = gmm.fit(X).predict(X)\n    if label:\n"
         "        ax.scatter(X[:, 0], X[:, 1], c=labels, s=40, cmap='viridis', zorder=2)\n    else:\n"
         "        ax.scatter(X[:, 0], X[:, 1], s=40, zorder=2)\n    ax.axis('equal')\n    \n"
         "    w_factor = 0.2 / gmm.weights_.max()\n"
         "    for pos, covar, w in zip(gmm.means_, gmm.covariances_, gmm.weights_):\n"
         "        draw_ellipse(pos, covar, alpha=w * w_factor)"),
        "matplotlib: misspelt module"),
    (10, "gmm = GaussianMixture(n_components=4, random_state=42)\nplot_gmm(gmm, X, labels=True)",
         "misspelt keyword of the notebook's function"),
    (11, ("gmm = GaussianMixture(n_components=4, covariance_type='diagonal', random_state=42)\n"
          "plot_gmm(gmm, X_stretched)"),
         "a parameter value spelt out"),
    (12, ("from sklearn.datasets import make_moons\nXmoon, ymoon = make_moons(200, .05, random_state=0)\n"
          "plt.scatter(Xmoon[:, 0], Xmoon[:, 1]);"),
         "a keyword-only argument given by position"),
    (13, ("gmm2 = GaussianMixture(n_components=2, covariance_type='full', random_state=0)\n"
          "plot_gmm(gmm2, Xmoon, ax=plt.gca)"),
         "a function passed uncalled (as the notebook's function's axes)"),
    (14, ("gmm16 = GaussianMixture(n_components=16, covariance_type='full', random_state=0)\n"
          "plot_gmm(gmm16, Xmoon, label=false)"),
         "JavaScript's false"),
    (15, "Xnew, ynew = gmm16.sample(400, random_state=0)\nplt.scatter(Xnew[:, 0], Xnew[:, 1]);",
         "a keyword the method lacks"),
    (16, ("n_components = np.arange(0, 21)\n"
          "models = [GaussianMixture(n, covariance_type='full', random_state=0).fit(Xmoon)\n"
          "          for n in n_components]\n\n"
          "plt.plot(n_components, [m.bic(Xmoon) for m in models], label='BIC')\n"
          "plt.plot(n_components, [m.aic(Xmoon) for m in models], label='AIC')\nplt.legend(loc='best')\n"
          "plt.xlabel('n_components');"),
         "a range from 0 (a model of no components)"),
    (17, "from sklearn.datasets import load_digits\ndigits = load_digits()\ndigits.data.shape()",
         "an attribute called"),
    (18, ("def plot_digits(data):\n    fig, ax = plt.subplots(5, 10, figsize=(8, 4),\n"
          "                           subplot_kw=dict(xticks=[], yticks=[]))\n"
          "    fig.subplots_adjust(hspace=0.05, wspace=0.05)\n    for i, axi in enumerate(ax.flat):\n"
          "        im = axi.imshow(data[i].reshape(8, 8), cmap='binary')\n        im.set_clim(0, 16)\n"
          "plot_digits(digits.data[:40])"),
         "fewer images than the notebook's function's grid"),
    (19, ("from sklearn.decomposition import PCA\npca = PCA(99, whiten=True)\n"
          "data = pca.fit_transform(digits.data)\ndata.shape"),
         "a percentage for a fraction"),
    (20, ("n_components = np.arange(50, 210, 10)\n"
          "models = [GaussianMixture(n, covariance_type='full', random_state=0)\n          for n in n_components]\n"
          "aics = [model.fit(data).aic for model in models]\nplt.plot(n_components, aics);"),
         "a method left uncalled"),
    (21, ("gmm = GaussianMixture(140, covariance_type='full', random_state=0)\ngmm.fit(digits.data)\n"
          "print(gmm.converged_)"),
         "the raw data for the projected (runs)"),
    (22, "data_new = gmm.sample(100)\ndata_new.shape", "a tuple result not unpacked"),
    (23, "digits_new = pca.transform(data_new)\nplot_digits(digits_new)", "transform for inverse_transform"),
]
# ageron/handson-ml3's tools_pandas (pandas' tutorial: Series, time series and periods, DataFrames,
# multi-indexes, eval and query, alignment, missing values, group-by, pivot tables, saving, merge,
# concat and categoricals): written down before any run of the guard, from the notebook's sources
# alone (held out); code cells from 0
HOML3_TOOLS_PANDAS = [
    (9, 's2.iloc["bob"]', "a label to the positional indexer"),
    (16, 's4 = pd.Series(weights, index = ["colin", "Alice"])\ns4', "a label in the wrong case (runs: NaN)"),
    (22, "dates = pd.date_range('2016/10/29 5:30pm', periods=12, freq='H')\ndates",
         "a frequency alias pandas 3 removed"),
    (25, 'temp_series_freq_2h = temp_series.resample("2h", how="mean")\ntemp_series_freq_2h',
         "a keyword pandas removed (resample's how)"),
    (34, 'temp_series_paris = temp_series.tz_convert("Europe/Paris")\ntemp_series_paris',
         "the naive series converted (tz_convert before tz_localize)"),
    (50, 'people["birthyear", "hobby"]', "one pair of brackets for a list of columns"),
    (57, 'd5.loc["public"]', "a column level looked up as a row"),
    (62, "d7 = d6.stack(dropna=False)\nd7", "an argument pandas 3's stack refuses"),
    (68, "people.iloc[3]", "a position off by one"),
    (71, 'people[people["birthyear"] < 1990 and people["weight"] > 70]', "`and` between boolean Series"),
    (73, ('people["age"] = 2018 - people["birth_year"]  # adds a new column "age"\n'
          'people["over 30"] = people["age"] > 30      # adds another column "over 30"\n'
          'birthyears = people.pop("birthyear")\ndel people["children"]\n\npeople'),
         "misspelt column"),
    (76, 'people.insert("height", 1, [172, 181, 185])\npeople', "arguments in the wrong order"),
    (77, ('people.assign({\n    "body_mass_index": people["weight"] / (people["height"] / 100) ** 2,\n'
          '    "has_pets": people["pets"] > 0\n})'),
         "keywords passed as a dict"),
    (84, ("overweight_threshold = 30\n"
          'people.eval("overweight = body_mass_index > overweight_threshold", inplace=True)\npeople'),
         "a local variable without its @ in eval"),
    (85, 'people.query("age > 30 and pets = 0")', "= for == in a query"),
    (88, 'people.sort_values(by="age", reverse=True, inplace=True)\npeople', "Python's sorted keyword"),
    (99, "grades - grades.mean(axis=1)  # equivalent to: grades - [7.75, 8.75, 7.50]",
         "row means aligned on the columns (runs: all NaN)"),
    (105, ('fixed_bonus_points = bonus_points.fillna(0)\nfixed_bonus_points.insert(0, "sep", 0)\n'
           'fixed_bonus_points["alice"] = 0\ngrades + fixed_bonus_points'),
          "a row set without .loc (runs: a new column)"),
    (113, 'final_grades["hobby"] = ["Biking", "Dancing", np.nan, "Dancing"]\nfinal_grades',
          "a list one element short"),
    (115, 'grouped_grades["sep", "oct"].mean()', "a tuple of columns for a list"),
    (118, 'pd.pivot_table(more_grades, index="name")', "the text column left in (its mean)"),
    (128, 'my_df.to_csv("out/my_df.csv")\nmy_df.to_html("my_df.html")\nmy_df.to_json("my_df.json")',
          "a folder that does not exist"),
    (138, ('city_pop2 = city_pop.copy()\ncity_pop2.columns = ["population", "name", "state"]\n'
           'pd.merge(left=city_loc, right=city_pop2, on="city")'),
          "the renamed column joined on its old name"),
    (141, "city_loc.append(city_pop, ignore_index=True)", "an API pandas 2 removed"),
    (148, "city_eco['economy'] = city_eco['economy'].rename_categories({'Banking': 'Finance'})\ncity_eco",
          "the .cat accessor left out"),
]

# jakevdp/PythonDataScienceHandbook (second edition), 03.07 (pandas' merge and join: one-to-one, many-to-one and
# many-to-many merges, keys, index joins, how= and suffixes, then the US states' population, areas and
# abbreviations read from the checkout's CSVs, their gaps found and filled, a query and a density ranking):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain
# kernel only); code cells from 0
PDSH_0307 = [
    (2, "df3 = pd.merge([df1, df2])\ndf3", "concat's list form given to merge"),
    (3, ("df4 = pd.DataFrame({'group': ['Accounting', 'Engineering', 'HR'],\n"
         "                    'supervisor': ['Carly', 'Guido', 'Steve']})\n"
         "display(df3, df4, pd.merge(df3, df4))"),
     "the frames themselves given to the notebook's display class (it takes their names)"),
    (6, "display('df1', 'df2', \"pd.merge(df1, df2, on=employee)\")",
     "a column name without its quotes"),
    (7, ("df3 = pd.DataFrame({'name': ['Bob', 'Jake', 'Lisa', 'Sue'],\n"
         "                    'salary': [70000, 80000, 120000, 90000]})\n"
         "display('df1', 'df3', 'pd.merge(df1, df3, left_on=\"employee\")')"),
     "a left key without its right one (inside the display string)"),
    (8, "pd.merge(df1, df3, left_on=\"employee\", right_on=\"name\").drop(columns='name', axis=1)",
     "columns= and axis= together"),
    (9, "df1a = df1.reset_index('employee')\ndf2a = df2.set_index('employee')\ndisplay('df1a', 'df2a')",
     "reset_index for set_index"),
    (10, "pd.merge(df1a, df2a, left_index='employee', right_index='employee')",
     "the index's name where a flag goes"),
    (11, "df1a.join(df2)", "the unindexed frame joined on its row numbers (runs: all NaN)"),
    (13, ("df6 = pd.DataFrame({'name': ['Peter', 'Paul', 'Mary'],\n"
          "                    'food': ['fish', 'beans', 'bread']},\n"
          "                   index=['name', 'food'])"), "index= for columns="),
    (14, "df6.merge(df7, 'name')", "the key by position, read as how="),
    (15, "display('df6', 'df7', \"pd.merge(df6, df7, how='full')\")", "SQL's join name for pandas' one"),
    (17, ("df8 = pd.DataFrame({'name': ['Bob', 'Jake', 'Lisa', 'Sue'],\n                    'rank': [1, 2, 3, 4]})\n"
          "df9 = pd.DataFrame({'name': ['Bob', 'Jake', 'Lisa', 'Sue'],\n                    'rank': [3, 1, 4, 2]})\n"
          "display('df8', 'df9', 'pd.merge(df8, df9)')"),
     "on= left out: both shared columns taken as keys (runs: empty)"),
    (18, "pd.merge(df8, df9, on=\"name\", suffixes={\"_L\", \"_R\"})", "a set for the pair of suffixes"),
    (20, "pop = pd.read_csv('state-population.csv')\npop.head()", "the data folder left out of the path"),
    (21, ("merged = pd.merge(pop, abbrevs, how='outer', on='state/region')\n"
          "merged = merged.drop('abbreviation', axis=1) # drop duplicate info\nmerged.head()"),
     "one on= for keys named differently on the two sides"),
    (23, "merged[merged['population'] == np.nan].head()", "NaN found with == (runs: empty)"),
    (24, "merged.loc[merged['state'].isnull(), ['state/region']].unique()",
     "double brackets: a frame where a Series' method is called"),
    (25, ("merged['state'][merged['state/region'] == 'PR'] = 'Puerto Rico'\n"
          "merged['state'][merged['state/region'] == 'USA'] = 'United States'\nmerged.isnull().any()"),
     "chained assignment (runs: copy-on-write leaves the frame as it was)"),
    (26, "final = pd.merge(merged, areas['area (sq. mi)'], on='state', how='left')\nfinal.head()",
     "the right side cut to its value column, the key with it"),
    (28, "final[final['area (sq. mi)'].isnull(), 'state'].unique()",
     "a row mask and a column in [] (.loc left out)"),
    (29, "final.dropna(inplace=True).head()", "a method chained on an in-place call's None"),
    (30, "data2010 = final[final.year == 2010 & final.ages == 'total']\ndata2010.head()",
     "& binding before == (no parentheses)"),
    (30, "data2010 = final.query(\"year == 2010 & ages == total\")\ndata2010.head()",
     "a text value without quotes in a query"),
    (32, ("data2010.set_index('state', inplace=True)\n"
          "density = data2010['population'] / data2010['area (sq. mi)']\n"
          "density.sort_values(ascending=False, inplace=True)\ndensity.head()"),
     "the cell before pasted in again (its in-place set_index run twice)"),
]
# ageron/handson-ml3's tools_matplotlib (matplotlib's tutorial: line plots and format strings, subplots and
# grids, figures and Axes, text, annotations and boxes, legends, scales, ticks, polar and 3D plots, scatter
# plots, lines, histograms, images read with matplotlib and PIL, made and shown, and animations): written
# down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
HOML3_TOOLS_MATPLOTLIB = [
    (1, "import matplotlib as plt\n\nplt.plot([1, 2, 4, 9, 5, 3])\nplt.show()",
     "the package imported under pyplot's name"),
    (3, "plt.plot([-3, -2, 5, 0], [1, 6, 4, 3])\nplt.axis(-4, 6, 0, 7)\nplt.show()",
     "the four limits as four arguments"),
    (4, "import numpy as np\n\nx = np.linspace(-2, 2, 500)\ny = x^2\n\nplt.plot(x, y)\nplt.show()",
     "^ for a power"),
    (5, ("plt.plot(x, y)\nplt.title(\"Square function\")\nplt.xlabel(\"x\")\n"
         "plt.ylabel(\"y = x**2\", fontsize=\"huge\")\nplt.grid(True)\nplt.show()"),
     "a font size name matplotlib lacks"),
    (6, ("plt.plot([(0, 0), (100, 0), (100, 100), (0, 100), (0, 0), (100, 100), (50, 130), (0, 100), (100, 0)])\n"
         "plt.axis([-10, 110, -10, 140])\nplt.show()"),
     "points as (x, y) pairs (runs: two curves against their index)"),
    (7, ("plt.plot([0, 100, 100, 0, 0, 100, 50, 0, 100],\n         [0, 0, 100, 100, 0, 100, 130, 100, 0],\n"
         "         \"dashed\")\nplt.axis([-10, 110, -10, 140])\nplt.show()"),
     "a line style's name as the format string"),
    (12, ("x = np.linspace(-1.4, 1.4, 30)\nplt.plot(x, x**2)\nplt.show()\n"
          "plt.savefig(\"my_square_function.png\", transparent=True)"),
     "savefig after show (runs: a blank image)"),
    (13, ("x = np.linspace(-1.4, 1.4, 30)\nplt.subplot(2, 2)  # 2 rows, 2 columns\nplt.plot(x, x)\n"
          "plt.subplot(2, 2, 2)  # 2 rows, 2 columns, 2nd subplot = top right\nplt.plot(x, x**2)"),
     "the subplot's number left out"),
    (18, ("x = np.linspace(-2, 2, 200)\nfig1, ax_top, ax_bottom = plt.subplots(2, 1, sharex=True)\n"
          "fig1.set_size_inches(10,5)\n"
          "line1, line2 = ax_top.plot(x, np.sin(3*x**2), \"r-\", x, np.cos(5*x**2), \"b-\")"),
     "the Axes' pair unpacked flat beside the figure"),
    (19, ("x = np.linspace(-1.5, 1.5, 30)\npx = 0.8\npy = px**2\n\nplt.plot(x, x**2, \"b-\", px, py, \"ro\")\n\n"
          "plt.text(px - 0.08, py, \"Beautiful point\", ha=\"right\", weight=\"heavy\")\n"
          "plt.text(px + 0.05, py - 0.4, \"x = %0.2f\\ny = %0.2f\"%(px), rotation=-30,\n         color='gray')\n\n"
          "plt.show()"),
     "one value for two % placeholders"),
    (21, ("plt.plot(x, x**2, px, py, \"ro\")\n\n"
          "bbox_props = dict(boxstyle=\"round4,pad=1,rounding_size=0.2\", ec=\"black\",\n"
          "                  fc=\"#EEEFF\", lw=5)\n"
          "plt.text(0, 1.5, \"Square function\\n$y = x^2$\", fontsize=20, color='black',\n"
          "         ha=\"center\", bbox=bbox_props)\n\nplt.show()"),
     "a hex colour a digit short"),
    (23, ("x = np.linspace(-1.4, 1.4, 50)\nplt.plot(x, x**2, \"r--\", label=\"Square function\")\n"
          "plt.plot(x, x**3, \"g-\", label=\"Cube function\")\nplt.legend(\"best\")\nplt.grid(True)\nplt.show()"),
     "the location given by position, read as the labels (runs: 'b' and 'e')"),
    (25, ("x = np.linspace(-2, 2, 100)\n\nplt.figure(1, figsize=(15,10))\nplt.subplot(131)\nplt.plot(x, x**3)\n"
          "plt.grid(True)\nplt.title(\"Default ticks\")\n\nax = plt.subplot(132)\nplt.plot(x, x**3)\n"
          "ax.xticks(np.arange(-2, 2, 1))\nplt.grid(True)\nplt.title(\"Manual ticks on the x-axis\")"),
     "pyplot's function called on an Axes"),
    (27, ("x = np.linspace(-5, 5, 50)\ny = np.linspace(-5, 5, 50)\nX, Y = np.meshgrid(x, y)\n"
          "R = np.sqrt(X**2 + Y**2)\nZ = np.sin(R)\n\nfigure = plt.figure(1, figsize = (12, 4))\n"
          "subplot3d = plt.subplot(111, projection='3d')\n"
          "surface = plt.plot_surface(X, Y, Z, rstride=1, cstride=1,\n"
          "                           cmap=matplotlib.cm.coolwarm, linewidth=0.1)\nplt.show()"),
     "a 3D Axes' method called on pyplot"),
    (28, "plt.contourf(X, Y, Z, cmap=matplotlib.cm.coolwarm)\nplt.colorbar(Z)\nplt.show()",
     "the data given to colorbar for its mappable"),
    (30, "x, y, scale = np.random.rand(100, 3)\nscale = 500 * scale ** 5\nplt.scatter(x, y, s=scale)\nplt.show()",
     "rows unpacked where columns were meant"),
    (31, ("for color in 'red green blue':\n    n = 100\n    x, y = np.random.rand(2, n)\n"
          "    scale = 500.0 * np.random.rand(n) ** 5\n"
          "    plt.scatter(x, y, s=scale, c=color, alpha=0.3, edgecolors='blue')\n\nplt.grid(True)\n\nplt.show()"),
     "a loop over a string of names (its letters)"),
    (32, ("def plot_line(axis, slope, intercept, **kwargs):\n    xmin, xmax = axis.get_xlim()\n"
          "    plt.plot([xmin, xmax],\n             [xmin*slope+intercept, xmax*slope+intercept],\n"
          "             **kwargs)\n\nx = np.random.randn(1000)\ny = 0.5*x + 5 + np.random.randn(100) * 2\n"
          "plt.axis([-2.5, 2.5, -5, 15])\nplt.scatter(x, y, alpha=0.2)"),
     "a size typed with a zero missing"),
    (37, "plt.imshow(img)\nplt.axes('off')\nplt.show()", "axes for axis"),
    (38, "import PIL\n\nimg = PIL.Image.open(\"my_square_function.png\")\nprint(img.shape, img.dtype)",
     "PIL's image read as an array (np.asarray left out)"),
    (40, "img = np.arange(100, 100)\nprint(img)\nplt.imshow(img)\nplt.show()",
     "arange's arguments for a shape"),
    (42, ("img = np.empty((20,30,3))\nimg[:, :10] = [0, 0, 0.6, 1]\nimg[:, 10:20] = [1, 1, 1]\n"
          "img[:, 20:] = [0.6, 0, 0]\nplt.imshow(img)\nplt.show()"),
     "an RGBA colour into an RGB image"),
    (45, ("x = np.linspace(-1, 1, 100)\ny = np.sin(x**2*25)\ndata = np.array([x, y])\n\nfig = plt.figure()\n"
          "line, = plt.plot([], [], \"r-\")  # start with an empty plot\nplt.axis([-1.1, 1.1, -1.1, 1.1])\n\n"
          "def update_line(num, data):\n    line.set_data(data[..., :num] + np.random.rand(2, num) / 25)\n"
          "    return line,\n\nline_ani = animation.FuncAnimation(fig, update_line, frames=50,\n"
          "                                   fargs=(data), interval=100)\nplt.close()"),
     "a one-element tuple without its comma"),
    (47, "HTML(line_ani)", "the animation itself where its HTML goes"),
    (48, "matplotlib.rc('animation.html', 'jshtml')", "an rcParams key and value given to rc"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.08 (matplotlib's multiple subplots: plt.axes and
# fig.add_axes with a rectangle, plt.subplot and fig.add_subplot on a grid, subplots_adjust, plt.subplots with
# shared axes and its array of axes, GridSpec and its slices, and a scatter with marginal histograms): written
# down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only);
# code cells from 0
PDSH_0408 = [
    (0, "%matplotlib inline\nimport matplotlib.pylot as plt\nplt.style.use('seaborn-white')\nimport numpy as np",
     "the pyplot module misspelt"),
    (1, "ax1 = plt.axes()  # standard axes\nax2 = plt.axes(0.65, 0.65, 0.2, 0.2)",
     "the axes' rectangle given as four arguments, not one list"),
    (2, ("fig = plt.figure()\nax1 = fig.add_axes([0.1, 0.5, 0.8, 0.4],\n"
         "                   xticklabel=[], ylim=(-1.2, 1.2))\nax2 = fig.add_axes([0.1, 0.1, 0.8, 0.4],\n"
         "                   ylim=(-1.2, 1.2))\n\nx = np.linspace(0, 10)\nax1.plot(np.sin(x))\nax2.plot(np.cos(x));"),
     "add_axes' xticklabels keyword misspelt"),
    (2, ("fig = plt.figure()\nax1 = fig.add_axes([0.1, 0.5, 0.8, 0.4],\n"
         "                   xticklabels=[], ylim=(-1.2, 1.2))\nax2 = fig.add_axes([0.1, 0.1, 0.8, 0.4],\n"
         "                   ylim=(-1.2, 1.2))\n\nx = np.linspace(0, 10, 0.1)\nax1.plot(np.sin(x))\n"
         "ax2.plot(np.cos(x));"),
     "linspace given a step size where its number of points goes"),
    (3, ("for i in range(1, 7):\n    plt.subplot(2, 3, i)\n    plt.text(0.5, 0.5, str(2, 3, i),\n"
         "             fontsize=18, ha='center')"),
     "the tuple's parentheses left out inside str()"),
    (3, ("for i in range(1, 7):\n    plt.subplot(2, 3, i)\n    plt.text(0.5, 0.5, str((2, 3, i)),\n"
         "             fontsize=18, ha='centre')"),
     "the horizontal alignment spelt 'centre'"),
    (4, ("fig = plt.figure()\nfig.subplot_adjust(hspace=0.4, wspace=0.4)\nfor i in range(1, 7):\n"
         "    ax = fig.add_subplot(2, 3, i)\n    ax.text(0.5, 0.5, str((2, 3, i)),\n"
         "           fontsize=18, ha='center')"),
     "the figure's subplots_adjust method misspelt"),
    (4, ("fig = plt.figure()\nfig.subplots_adjust(hspace=0.4, wspace=0.4)\nfor i in range(1, 7):\n"
         "    ax = fig.add_subplot((2, 3, i))\n    ax.text(0.5, 0.5, str((2, 3, i)),\n"
         "           fontsize=18, ha='center')"),
     "add_subplot given the (rows, cols, index) as one tuple"),
    (5, "fig, ax = plt.subplots(2, 3, sharex='column', sharey='row')", "sharex's 'col' written out as 'column'"),
    (5, "fig, ax = plt.subplots(2, 3, sharex='row', sharey='col')", "the sharex and sharey values swapped (runs)"),
    (6, ("# axes are in a two-dimensional array, indexed by [row, col]\nfor i in range(2):\n    for j in range(3):\n"
         "        ax.text(0.5, 0.5, str((i, j)),\n                      fontsize=18, ha='center')\nfig"),
     "text called on the array of axes, not on one axes"),
    (6, ("# axes are in a two-dimensional array, indexed by [row, col]\nfor i in range(2):\n    for j in range(3):\n"
         "        ax[i, j].text(0.5, 0.5, str((i, j)),\n                      fontsize='18pt', ha='center')\nfig"),
     "a font size given as a CSS-like string"),
    (8, "grid = plt.GridSpec(2, 3, wspace=0.4, hpace=0.3)", "GridSpec's hspace keyword misspelt"),
    (9, "plt.subplot(grid[0, 0])\nplt.subplot(grid[0, 1:])\nplt.subplot(grid[1, :2])\nplt.subplot(grid[1, 3]);",
     "the last column counted from 1"),
    (10, ("# Create some normally distributed data\nmean = [0, 0]\ncov = [[1, 1], [1, 2]]\n"
          "rng = np.random.default_rng(1701)\nx, y = rng.multivariate_normal(mean, cov, 3000)\n\n"
          "# Set up the axes with GridSpec\nfig = plt.figure(figsize=(6, 6))\n"
          "grid = plt.GridSpec(4, 4, hspace=0.2, wspace=0.2)\nmain_ax = fig.add_subplot(grid[:-1, 1:])\n"
          "y_hist = fig.add_subplot(grid[:-1, 0], xticklabels=[], sharey=main_ax)\n"
          "x_hist = fig.add_subplot(grid[-1, 1:], yticklabels=[], sharex=main_ax)\n\n"
          "# Scatter points on the main axes\nmain_ax.plot(x, y, 'ok', markersize=3, alpha=0.2)\n\n"
          "# Histogram on the attached axes\nx_hist.hist(x, 40, histtype='stepfilled',\n"
          "            orientation='vertical', color='gray')\nx_hist.invert_yaxis()\n\n"
          "y_hist.hist(y, 40, histtype='stepfilled',\n            orientation='horizontal', color='gray')\n"
          "y_hist.invert_xaxis()"),
     "the samples unpacked into x and y without transposing"),
    (10, ("# Create some normally distributed data\nmean = [0, 0]\ncov = [[1, 1], [1, 2]]\n"
          "rng = np.random.default_rng(1701)\nx, y = rng.multivariate_normal(mean, cov, 3000).T\n\n"
          "# Set up the axes with GridSpec\nfig = plt.figure(figsize=(6, 6))\n"
          "grid = plt.GridSpec(4, 4, hspace=0.2, wspace=0.2)\nmain_ax = fig.add_subplot(grid[:-1, 1:])\n"
          "y_hist = fig.add_subplot(grid[:-1, 0], xticklabels=[], sharey=True)\n"
          "x_hist = fig.add_subplot(grid[-1, 1:], yticklabels=[], sharex=main_ax)\n\n"
          "# Scatter points on the main axes\nmain_ax.plot(x, y, 'ok', markersize=3, alpha=0.2)\n\n"
          "# Histogram on the attached axes\nx_hist.hist(x, 40, histtype='stepfilled',\n"
          "            orientation='vertical', color='gray')\nx_hist.invert_yaxis()\n\n"
          "y_hist.hist(y, 40, histtype='stepfilled',\n            orientation='horizontal', color='gray')\n"
          "y_hist.invert_xaxis()"),
     "add_subplot's sharey given True, not the axes to share"),
    (10, ("# Create some normally distributed data\nmean = [0, 0]\ncov = [[1, 1], [1, 2]]\n"
          "rng = np.random.default_rng(1701)\nx, y = rng.multivariate_normal(mean, cov, 3000).T\n\n"
          "# Set up the axes with GridSpec\nfig = plt.figure(figsize=(6, 6))\n"
          "grid = plt.GridSpec(4, 4, hspace=0.2, wspace=0.2)\nmain_ax = fig.add_subplot(grid[:-1, 1:])\n"
          "y_hist = fig.add_subplot(grid[:-1, 0], xticklabels=[], sharey=main_ax)\n"
          "x_hist = fig.add_subplot(grid[-1, 1:], yticklabels=[], sharex=main_ax)\n\n"
          "# Scatter points on the main axes\nmain_ax.plot(x, y, 'ok', markersize=3, alpha=0.2)\n\n"
          "# Histogram on the attached axes\nx_hist.hist(x, 40, histtype='stepfilled',\n"
          "            orientation='vertical', color='gray')\nx_hist.invert_yaxis()\n\n"
          "y_hist.hist(y, 40, histtype='stepfilled',\n            orientation='vertical', color='gray')\n"
          "y_hist.invert_xaxis()"),
     "the side histogram left vertical (runs)"),
    (10, ("# Create some normally distributed data\nmean = [0, 0]\ncov = [[1, 1], [1, 2]]\n"
          "rng = np.random.default_rng(1701)\nx, y = rng.multivariate_normal(mean, cov, 3000).T\n\n"
          "# Set up the axes with GridSpec\nfig = plt.figure(figsize=(6, 6))\n"
          "grid = plt.GridSpec(4, 4, hspace=0.2, wspace=0.2)\nmain_ax = fig.add_subplot(grid[:-1, 1:])\n"
          "y_hist = fig.add_subplot(grid[:-1, 0], xticklabels=[], sharey=main_ax)\n"
          "x_hist = fig.add_subplot(grid[-1, 1:], yticklabels=[], sharex=main_ax)\n\n"
          "# Scatter points on the main axes\nmain_ax.plot(x, y, 'ok', markersize=3, alpha=0.2)\n\n"
          "# Histogram on the attached axes\nx_hist.hist(x, 40, histtype='stepfilled',\n"
          "            orientation='vertical', color='gray')\nx_hist.invert_yaxis()\n\n"
          "y_hist.hist(y, 40, histtype='stepfilled',\n            orientation='horizontal', color='gray')\n"
          "y_hist.invert_xaxis"),
     "invert_xaxis not called (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.10 (matplotlib's ticks: log axes and their major and minor
# locators and formatters, hiding ticks or labels with NullLocator and NullFormatter, fewer ticks on a grid of
# subplots with MaxNLocator, ticks at multiples of pi with MultipleLocator, and their labels by a FuncFormatter):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0410 = [
    (0, "import matplotlib.pyplot as plt\nplt.style.use('classical')\nimport numpy as np\n\n%matplotlib inline",
     "the classic style's name misspelt"),
    (1, "ax = plt.axes(xscale='logarithmic', yscale='log')\nax.set(xlim=(1, 1E3), ylim=(1, 1E3))\nax.grid(True);",
     "the log scale's name spelt out"),
    (1, "ax = plt.axes(xscale='log', yscale='log')\nax.set(xlim=(0, 1E3), ylim=(1, 1E3))\nax.grid(True);",
     "a lower x limit of zero on a log axis (runs)"),
    (2, "print(ax.get_major_locator())\nprint(ax.xaxis.get_minor_locator())",
     "the locator asked of the axes, not its xaxis"),
    (3, "print(ax.xaxis.get_major_formatter())\nprint(ax.xaxis.get_minor_formatter)",
     "get_minor_formatter not called (runs)"),
    (4, ("ax = plt.axes()\nrng = np.random.default_rng(1701)\nax.plot(rng.random(50))\nax.grid()\n\n"
         "ax.yaxis.set_major_locator(plt.NullLocator)\nax.xaxis.set_major_formatter(plt.NullFormatter())"),
     "the NullLocator class given, not an instance"),
    (4, ("ax = plt.axes()\nrng = np.random.default_rng(1701)\nax.plot(rng.rand(50))\nax.grid()\n\n"
         "ax.yaxis.set_major_locator(plt.NullLocator())\nax.xaxis.set_major_formatter(plt.NullFormatter())"),
     "the legacy np.random.rand called on a Generator"),
    (6, "fig, ax = plt.subplot(4, 4, sharex=True, sharey=True)", "plt.subplot, not plt.subplots"),
    (7, ("# For every axis, set the x and y major locator\nfor axi in ax:\n"
         "    axi.xaxis.set_major_locator(plt.MaxNLocator(3))\n    axi.yaxis.set_major_locator(plt.MaxNLocator(3))\n"
         "fig"),
     "the loop over the 2-D array of axes itself, not ax.flat"),
    (8, ("# Plot a sine and cosine curve\nfig, ax = plt.subplots()\nx = np.linspace(0, 3 * np.pi, 1000)\n"
         "ax.plot(x, np.sin(x), lw=3, label='Sine')\nax.plot(x, np.cos(x), lw=3, label='Cosine')\n\n"
         "# Set up grid, legend, and limits\nax.grid(True)\nax.legend(frameon=False)\nax.axis('equals')\n"
         "ax.set_xlim(0, 3 * np.pi);"),
     "axis' 'equal' misspelt"),
    (8, ("# Plot a sine and cosine curve\nfig, ax = plt.subplots()\nx = np.arange(0, 3 * np.pi, 1000)\n"
         "ax.plot(x, np.sin(x), lw=3, label='Sine')\nax.plot(x, np.cos(x), lw=3, label='Cosine')\n\n"
         "# Set up grid, legend, and limits\nax.grid(True)\nax.legend(frameon=False)\nax.axis('equal')\n"
         "ax.set_xlim(0, 3 * np.pi);"),
     "np.arange where np.linspace's number of points is meant (runs)"),
    (9, "ax.xaxis.set_major_locator(np.pi / 2)\nax.xaxis.set_minor_locator(plt.MultipleLocator(np.pi / 4))\nfig",
     "the tick spacing given where a locator goes"),
    (10, ("def format_func(value, tick_number):\n    # find number of multiples of pi/2\n"
          '    N = int(np.round(2 * value / np.pi))\n    if N == 0:\n        return "0"\n    elif N == 1:\n'
          '        return r"$\\pi/2$"\n    elif N == 2:\n        return r"$\\pi$"\n    elif N % 2 > 0:\n'
          '        return rf"${N}\\pi/2$"\n    else:\n        return rf"${N // 2}\\pi$"\n\n'
          "ax.xaxis.set_major_formatter(plt.FuncFormatter(format_func()))\nfig"),
     "the formatting function called, not passed"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.11 (matplotlib's configurations and stylesheets: a histogram
# styled by hand, its axes' facecolor, spines, ticks and tick labels, the same defaults by plt.rc and a color cycler,
# plt.style.available, and a function drawn in style contexts: default, fivethirtyeight, ggplot, bmh,
# dark_background, grayscale and seaborn's whitegrid): written down before any run of the guard, from the notebook's
# sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0411 = [
    (0, "import matplotlib.pyplot as plt\nplt.style('classic')\nimport numpy as np\n\n%matplotlib inline",
     "the style module called, not its use"),
    (1, "x = np.random.randn(1000)\nplt.hist(x, bins='30');", "the number of bins given as a string"),
    (1, "x = np.random.rand(1000)\nplt.hist(x);", "np.random.rand (uniform) where randn (normal) is meant (runs)"),
    (2, ("# use a gray background\nfig = plt.figure(facecolor='white')\nax = plt.axes(axisbg='#E6E6E6')\n"
         "ax.set_axisbelow(True)\n\n# draw solid white gridlines\nplt.grid(color='w', linestyle='solid')\n\n"
         "# hide axis spines\nfor spine in ax.spines.values():\n    spine.set_visible(False)\n    \n"
         "# hide top and right ticks\nax.xaxis.tick_bottom()\nax.yaxis.tick_left()\n\n# lighten ticks and labels\n"
         "ax.tick_params(colors='gray', direction='out')\nfor tick in ax.get_xticklabels():\n"
         "    tick.set_color('gray')\nfor tick in ax.get_yticklabels():\n    tick.set_color('gray')\n    \n"
         "# control face and edge color of histogram\nax.hist(x, edgecolor='#E6E6E6', color='#EE6666');"),
     "the axes' background by the removed axisbg keyword"),
    (2, ("# use a gray background\nfig = plt.figure(facecolor='white')\nax = plt.axes(facecolor='#E6E6E6')\n"
         "ax.set_axisbelow(True)\n\n# draw solid white gridlines\nplt.grid(color='w', linestyle='solid')\n\n"
         "# hide axis spines\nfor spine in ax.spines:\n    spine.set_visible(False)\n    \n"
         "# hide top and right ticks\nax.xaxis.tick_bottom()\nax.yaxis.tick_left()\n\n# lighten ticks and labels\n"
         "ax.tick_params(colors='gray', direction='out')\nfor tick in ax.get_xticklabels():\n"
         "    tick.set_color('gray')\nfor tick in ax.get_yticklabels():\n    tick.set_color('gray')\n    \n"
         "# control face and edge color of histogram\nax.hist(x, edgecolor='#E6E6E6', color='#EE6666');"),
     "the loop over the spines' names, not their values()"),
    (2, ("# use a gray background\nfig = plt.figure(facecolor='white')\nax = plt.axes(facecolor='#E6E6E6')\n"
         "ax.set_axisbelow(True)\n\n# draw solid white gridlines\nplt.grid(color='w', linestyle='solid')\n\n"
         "# hide axis spines\nfor spine in ax.spines.values():\n    spine.set_visible(False)\n    \n"
         "# hide top and right ticks\nax.xaxis.tick_bottom()\nax.yaxis.tick_left()\n\n# lighten ticks and labels\n"
         "ax.tick_params(colors='gray', direction='outward')\nfor tick in ax.get_xticklabels():\n"
         "    tick.set_color('gray')\nfor tick in ax.get_yticklabels():\n    tick.set_color('gray')\n    \n"
         "# control face and edge color of histogram\nax.hist(x, edgecolor='#E6E6E6', color='#EE6666');"),
     "tick_params' direction 'out' given as 'outward'"),
    (3, ("from matplotlib import cycler\ncolors = cycler('colour',\n"
         "                ['#EE6666', '#3388BB', '#9988DD',\n                 '#EECC55', '#88BB44', '#FFBBBB'])\n"
         "plt.rc('figure', facecolor='white')\nplt.rc('axes', facecolor='#E6E6E6', edgecolor='none',\n"
         "       axisbelow=True, grid=True, prop_cycle=colors)\nplt.rc('grid', color='w', linestyle='solid')\n"
         "plt.rc('xtick', direction='out', color='gray')\nplt.rc('ytick', direction='out', color='gray')\n"
         "plt.rc('patch', edgecolor='#E6E6E6')\nplt.rc('lines', linewidth=2)"),
     "the cycler's color property spelt colour"),
    (3, ("from matplotlib import cycler\ncolors = cycler('color',\n"
         "                ['#EE6666', '#3388BB', '#9988DD',\n                 '#EECC55', '#88BB44', '#FFBBBB'])\n"
         "plt.rc('figure', facecolor='white')\nplt.rc('axes', facecolor='#E6E6E6', edgecolor='none',\n"
         "       axisbelow=True, grid=True, prop_cycle=colors)\nplt.rc('grid', color='w', linestyle='solid')\n"
         "plt.rc('xticks', direction='out', color='gray')\nplt.rc('ytick', direction='out', color='gray')\n"
         "plt.rc('patch', edgecolor='#E6E6E6')\nplt.rc('lines', linewidth=2)"),
     "the xtick rc group spelt xticks"),
    (4, "plt.hist(x, histtype='filled');", "a histtype that hist does not have"),
    (5, "for i in range(4):\n    plt.plot(np.random.randint(10))",
     "np.random.randint(10), one integer, where ten random values are meant (runs)"),
    (6, "plt.style.available()[:5]", "the list of available styles called"),
    (8, "with plt.style.context('default'):\n    hist_and_lines", "hist_and_lines not called (runs)"),
    (9, "with plt.context('fivethirtyeight'):\n    hist_and_lines()", "context taken from pyplot, not plt.style"),
    (10, "with plt.style.context('ggplot'):\n    hist_and_lines('ggplot')",
     "the style's name passed to hist_and_lines, which takes no argument"),
    (11, "with plt.rc_context('bmh'):\n    hist_and_lines()", "a style's name given to rc_context, which takes a dict"),
    (12, "with plt.style.context(dark_background):\n    hist_and_lines()", "the style's name without its quotes"),
    (13, "with plt.style.context('greyscale'):\n    hist_and_lines()", "the grayscale style spelt greyscale"),
    (14, "with plt.style.context('seaborn-v0.8-whitegrid'):\n    hist_and_lines()",
     "the seaborn style's version written with a dot"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.01 (matplotlib's simple line plots: a figure and its axes,
# plt.plot and ax.plot of sine and cosine, line colors by name, code, grayscale, hex and RGB tuple, line styles and the
# format string, axes limits with xlim and ylim and reversed, plt.axis('tight') and ('equal'), titles, axis labels and
# a legend, and ax.set): written down before any run of the guard, from the notebook's sources alone (held out;
# checked in a plain kernel only); code cells from 0
PDSH_0401 = [
    (0, "%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.style.use('whitegrid')\nimport numpy as np",
     "seaborn's style name without matplotlib's seaborn-v0_8 prefix"),
    (1, "fig = plt.figure()\nax = plt.axis()", "plt.axis, not plt.axes (runs: ax is the limits)"),
    (2, "fig = plt.figure()\nax = plt.axes\n\nx = np.linspace(0, 10, 1000)\nax.plot(x, np.sin(x));",
     "plt.axes not called"),
    (3, "plt.plot(x, np.sin);", "np.sin passed, not applied to x"),
    (4, "plt.plot(x, np.sin(x))\nplt.plot(x, np.cosine(x));", "numpy's cos spelt out as cosine"),
    (5, ("plt.plot(x, np.sin(x - 0), color='blue')        # specify color by name\n"
         "plt.plot(x, np.sin(x - 1), color='g')           # short color code (rgbcmyk)\n"
         "plt.plot(x, np.sin(x - 2), color=0.75)          # grayscale between 0 and 1\n"
         "plt.plot(x, np.sin(x - 3), color='#FFDD44')     # hex code (RRGGBB, 00 to FF)\n"
         "plt.plot(x, np.sin(x - 4), color=(1.0,0.2,0.3)) # RGB tuple, values 0 to 1\n"
         "plt.plot(x, np.sin(x - 5), color='chartreuse'); # HTML color names supported"),
     "a grayscale level given as a number, not a string"),
    (6, ("plt.plot(x, x + 0, linestyle='solid')\nplt.plot(x, x + 1, linestyle='dash')\n"
         "plt.plot(x, x + 2, linestyle='dashdot')\nplt.plot(x, x + 3, linestyle='dotted');\n\n"
         "# For short, you can use the following codes:\nplt.plot(x, x + 4, linestyle='-')  # solid\n"
         "plt.plot(x, x + 5, linestyle='--') # dashed\nplt.plot(x, x + 6, linestyle='-.') # dashdot\n"
         "plt.plot(x, x + 7, linestyle=':');  # dotted"),
     "a line style's name shortened"),
    (7, ("plt.plot(x, x + 0, '-g')   # solid green\nplt.plot(x, x + 1, '--cyan')  # dashed cyan\n"
         "plt.plot(x, x + 2, '-.k')  # dashdot black\nplt.plot(x, x + 3, ':r');  # dotted red"),
     "a color's full name inside a format string"),
    (8, "plt.plot(x, np.sin(x))\n\nplt.xlim([-1, 11], [-1.5, 1.5]);",
     "both axes' limits given to xlim, as to plt.axis"),
    (10, "plt.plot(x, np.sin(x))\nplt.axis('tigth');", "the axis option misspelt"),
    (11, "plt.plot(x, np.sin(x))\nplt.axes('equal');", "plt.axes, not plt.axis"),
    (12, ("plt.plot(x, np.sin(x))\nplt.set_title(\"A Sine Curve\")\nplt.xlabel(\"x\")\n"
          "plt.ylabel(\"sin(x)\");"),
     "the axes' set_title method called on pyplot"),
    (13, ("plt.plot(x, np.sin(x), '-g', label='sin(x)')\nplt.plot(x, np.cos(x), ':b', label='cos(x)')\n"
          "plt.axis('equal')\n\nplt.legend;"),
     "legend not called (runs)"),
    (14, ("ax = plt.axes()\nax.plot(x, np.sin(x))\nax.set(xlim=(0, 10), ylim=(-2, 2),\n"
          "       xlabel='x', ylabel='sin(x)',\n       tittle='A Simple Plot');"),
     "set's title keyword misspelt"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.04 (matplotlib's density and contour plots: a function of x
# and y on a meshgrid, plt.contour with one color, with levels and a colormap, plt.contourf with a colorbar, plt.imshow
# with extent, origin and interpolation, and contour labels with clabel over a transparent image): written down before
# any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0404 = [
    (0, "%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.style('seaborn-v0_8-white')\nimport numpy as np",
     "the style module called, not its use"),
    (1, "def f(x, y):\n    np.sin(x) ** 10 + np.cos(10 + y * x) * np.cos(x)",
     "the function's return left out (runs)"),
    (2, "x = np.linspace(0, 5, 50)\ny = np.linspace(0, 5, 40)\n\nX, Y = np.meshgrid(x, y)\nZ = f(x, y)",
     "the function evaluated on the 1D axes, not the grid"),
    (2, "x = np.linspace(0, 5, 50)\ny = np.linspace(0, 5, 40)\n\nX, Y = np.meshgrid(x)\nZ = f(X, Y)",
     "meshgrid given one axis only"),
    (3, "plt.contour(X, Y, Z.T, colors='black');", "the grid's values transposed"),
    (4, "plt.contour(X, Y, Z, 20, cmap='RdGY');", "the colormap's name miscapitalised"),
    (5, "plt.colorbar()\nplt.contourf(X, Y, Z, 20, cmap='RdGy');", "the colorbar asked for before the plot"),
    (6, ("plt.imshow(X, Y, Z, extent=[0, 5, 0, 5], origin='lower', cmap='RdGy',\n"
         "           interpolation='gaussian', aspect='equal')\nplt.colorbar();"),
     "imshow given the x and y grids, as contour"),
    (6, ("plt.imshow(Z, extent=[0, 5, 0, 5], origin='bottom', cmap='RdGy',\n"
         "           interpolation='gaussian', aspect='equal')\nplt.colorbar();"),
     "the origin named 'bottom', not 'lower'"),
    (6, ("plt.imshow(Z, extent=[0, 5, 0, 5], cmap='RdGy',\n"
         "           interpolation='gaussian', aspect='equal')\nplt.colorbar();"),
     "origin='lower' left out (runs: the image upside down)"),
    (7, ("contours = plt.contour(X, Y, Z, 3, colors='black')\nplt.clabel(inline=True, fontsize=8)\n\n"
         "plt.imshow(Z, extent=[0, 5, 0, 5], origin='lower',\n           cmap='RdGy', alpha=0.5)\nplt.colorbar();"),
     "clabel not given the contours"),
    (7, ("contours = plt.contour(X, Y, Z, 3, colors='black')\nplt.clabel(contours, inline=True, fontsize=8)\n\n"
         "plt.imshow(Z, extent=[0, 5, 0, 5], origin='lower',\n           cmap='RdGy', alpha=50)\nplt.colorbar();"),
     "the transparency given as a percentage"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.05 (histograms, binnings and density: plt.hist and its
# options on seeded normal samples, overlaid histograms through a kwargs dict, np.histogram, a 2D normal sample binned
# with plt.hist2d and np.histogram2d, plt.hexbin, and scipy's gaussian_kde on a grid shown with imshow): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells
# from 0
PDSH_0405 = [
    (0, ("%matplotlib inline\nimport numpy as np\nimport matplotlib.pyplot as plt\n"
         "plt.style.use('seaborn-v0_8-white')\n\nrng = np.random.default_rng(1701)\ndata = rng.normal(1000)"),
     "the sample size given where the mean goes (runs: one number)"),
    (1, "plt.histogram(data);", "numpy's histogram name on pyplot"),
    (2, ("plt.hist(data, bins=30, normed=True, alpha=0.5,\n         histtype='stepfilled', color='steelblue',\n"
         "         edgecolor='none');"),
     "hist's old normed keyword, not density"),
    (2, ("plt.hist(data, bins=30, density=True, alpha=0.5,\n         histtype='stepfiled', color='steelblue',\n"
         "         edgecolor='none');"),
     "the histogram type misspelt"),
    (3, ("x1 = rng.normal(mean=0, std=0.8, size=1000)\nx2 = rng.normal(-2, 1, 1000)\nx3 = rng.normal(3, 2, 1000)\n\n"
         "kwargs = dict(histtype='stepfilled', alpha=0.3, density=True, bins=40)\n\n"
         "plt.hist(x1, **kwargs)\nplt.hist(x2, **kwargs)\nplt.hist(x3, **kwargs);"),
     "normal's loc and scale named mean and std"),
    (4, "counts, bin_edges = plt.hist(data, bins=5)\nprint(counts)", "pyplot's hist for np.histogram"),
    (5, "mean = [0, 0]\ncov = [1, 1, 1, 2]\nx, y = rng.multivariate_normal(mean, cov, 10000).T",
     "the covariance matrix flattened to a list"),
    (6, "plt.hist2d(x, y, bins=30)\ncb = plt.colorbar\ncb.set_label('counts in bin')", "colorbar not called"),
    (7, "counts, xedges, yedges = np.histogram(x, y, bins=30)\nprint(counts.shape)",
     "the one-dimensional histogram for histogram2d"),
    (7, "counts, xedges, yedges = np.histogram2d(x, y, bins=30)\nprint(counts.shape())", "shape called"),
    (8, "plt.hexbin(x, y, bins=30)\ncb = plt.colorbar(label='count in bin')",
     "bins for gridsize (runs: thirty color levels on the default grid)"),
    (9, ("from scipy.stats import gaussian_kde\n\n# fit an array of size [Ndim, Nsamples]\ndata = np.hstack([x, y])\n"
         "kde = gaussian_kde(data)\n\n# evaluate on a regular grid\nxgrid = np.linspace(-3.5, 3.5, 40)\n"
         "ygrid = np.linspace(-6, 6, 40)\nXgrid, Ygrid = np.meshgrid(xgrid, ygrid)\n"
         "Z = kde.evaluate(np.vstack([Xgrid.ravel(), Ygrid.ravel()]))\n\n# Plot the result as an image\n"
         "plt.imshow(Z.reshape(Xgrid.shape),\n           origin='lower', aspect='auto',\n"
         "           extent=[-3.5, 3.5, -6, 6])\ncb = plt.colorbar()\ncb.set_label(\"density\")"),
     "the samples stacked end to end, not as rows"),
    (9, ("from scipy.stats import gaussian_kde\n\n# fit an array of size [Ndim, Nsamples]\ndata = np.vstack([x, y])\n"
         "kde = gaussian_kde(data)\n\n# evaluate on a regular grid\nxgrid = np.linspace(-3.5, 3.5, 40)\n"
         "ygrid = np.linspace(-6, 6, 40)\nXgrid, Ygrid = np.meshgrid(xgrid, ygrid)\n"
         "Z = kde.evaluate(np.vstack([Xgrid.ravel(), Ygrid.ravel()]))\n\n# Plot the result as an image\n"
         "plt.imshow(Z,\n           origin='lower', aspect='auto',\n"
         "           extent=[-3.5, 3.5, -6, 6])\ncb = plt.colorbar()\ncb.set_label(\"density\")"),
     "the density's values not reshaped to the grid"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.04 (numpy's aggregates: Python's sum, min and max against
# np.sum, np.min, np.max and the array methods, %timeit, aggregates along an axis of a 2D array, and the presidents'
# heights read with pandas: mean, std, percentiles, median and a histogram): written down before any run of the
# guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0204 = [
    (0, "import numpy as np\nrng = np.default_rng()", "default_rng looked up on numpy, not numpy.random"),
    (1, "L = rng.rand(100)\nsum(L)", "the legacy rand on a Generator"),
    (2, "np.sum(L, axis=1)", "an axis the one-dimensional array lacks"),
    (3, "big_array = rng.random(1e6)\n%timeit sum(big_array)\n%timeit np.sum(big_array)", "a float size"),
    (4, "min(big_array, max(big_array))", "a parenthesis misplaced: the max inside min's call"),
    (5, "np.minimum(big_array), np.maximum(big_array)", "the two-array ufuncs minimum and maximum for min and max"),
    (6, "%timeit min(big_arr)\n%timeit np.min(big_array)", "the array's name shortened"),
    (7, "print(big_array.min(), big_array.max, big_array.sum())", "max not called (runs)"),
    (8, "M = rng.randint(0, 10, (3, 4))\nprint(M)", "the legacy randint on a Generator"),
    (8, "M = rng.integers(0, 10, 3, 4)\nprint(M)", "the shape given as two arguments"),
    (10, "M.min(axis=1)", "the wrong axis: each row's minimum, not each column's (runs)"),
    (11, "M.max(axis='columns')", "a pandas-style axis name on a numpy array"),
    (13, "data = pd.read_csv('data/president_heights.csv')\nheights = np.array(data['height(cm)'])\nprint(heights)",
     "pandas used before its import (the import line left out)"),
    (13, ("import pandas as pd\ndata = pd.read_csv('data/president_height.csv')\n"
          "heights = np.array(data['height(cm)'])\nprint(heights)"),
     "the file's name misspelt"),
    (14, ('print("Mean height:       ", heights.mean())\nprint("Standard deviation:", heights.stdev())\n'
          'print("Minimum height:    ", heights.min())\nprint("Maximum height:    ", heights.max())'),
     "the standard deviation method named stdev"),
    (15, ('print("25th percentile:   ", np.percentile(heights, 0.25))\n'
          'print("Median:            ", np.median(heights))\nprint("75th percentile:   ", np.percentile(heights, 75))'),
     "a percentile given as a fraction (runs)"),
    (15, ('print("25th percentile:   ", np.percentile(heights, 25))\nprint("Median:            ", heights.median())\n'
          'print("75th percentile:   ", np.percentile(heights, 75))'),
     "a median method on the array"),
    (17, ("plt.hist(heights)\nplt.title('Height Distribution of US Presidents')\nplt.xlabel('height (cm)')\n"
          "plt.ylabel(number);"),
     "the axis label's quotes left out"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.01 (Python's types against numpy's: lists of ints, of
# strings and of mixed types, the fixed-type array module, np.array from lists with upcasting, a dtype and nested
# lists, and arrays made from scratch: zeros, ones, full, arange, linspace, random, normal, randint, eye and empty):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0201 = [
    (1, "type(L[10])", "the list's length used as an index"),
    (2, "L2 = [str[c] for c in L]\nL2", "square brackets for str's call"),
    (3, "L2[0].dtype", "numpy's dtype attribute asked of a Python string"),
    (4, 'L3 = [True, "2", 3.0, 4]\n[type(item) for items in L3]', "the loop variable named items, read as item"),
    (5, "import array\nL = list(range(10))\nA = array.array('int', L)\nA", "the type code spelt out as 'int'"),
    (7, "# Integer array\nnp.array(1, 4, 2, 5, 3)", "the values passed without the list's brackets"),
    (8, "np.array([3,14, 4, 2, 3])", "a comma for the decimal point (runs)"),
    (9, "np.array([1, 2, 3, 4], dtype=np.float)", "the np.float alias, removed from numpy"),
    (10, "# Nested lists result in multidimensional arrays\nnp.array([range(i, 3) for i in [2, 4, 6]])",
     "the range's end 3 rather than i + 3"),
    (11, "# Create a length-10 integer array filled with 0s\nnp.zeros(10, dtpye=int)", "the dtype keyword misspelt"),
    (12, "# Create a 3x5 floating-point array filled with 1s\nnp.ones((3, 5), dtype=flaot)",
     "the dtype's name misspelt"),
    (13, "# Create a 3x5 array filled with 3.14\nnp.full((3, 5))", "the fill value left out"),
    (14, "np.arrange(0, 20, 2)", "arange misspelt"),
    (15, "# Create an array of five values evenly spaced between 0 and 1\nnp.linspace(0, 1, 0.2)",
     "a step for linspace's number of values"),
    (16, "np.random.random(3, 3)", "the shape given as two arguments, not a tuple"),
    (17, "np.random.normal(1, 0, (3, 3))", "the mean and standard deviation swapped (runs)"),
    (18, "np.random.randint(10, 0, (3, 3))", "the bounds in the wrong order"),
    (19, "# Create a 3x3 identity matrix\nnp.eye((3, 3))", "a shape tuple for eye's number of rows"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.02 (the basics of numpy arrays: a seeded Generator's
# integers, ndim, shape, size and dtype, indexing one and two dimensions, assignment and truncation, slices, reversed
# and strided, views and copies, reshape and newaxis, concatenate, vstack and hstack, and split, vsplit and hsplit):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0202 = [
    (0, ("import numpy as np\nrng = np.random.default_rng(seed=1701)  # seed for reproducibility\n\n"
         "x1 = rng.randint(10, size=6)  # one-dimensional array\n"
         "x2 = rng.randint(10, size=(3, 4))  # two-dimensional array\n"
         "x3 = rng.randint(10, size=(3, 4, 5))  # three-dimensional array"),
     "the legacy RandomState's randint on a Generator"),
    (1, ('print("x3 ndim: ", x3.ndim)\nprint("x3 shape:", x3.shape())\nprint("x3 size: ", x3.size)\n'
         'print("dtype:   ", x3.dtype)'),
     "shape called like a method"),
    (4, "x1[6]", "the array's length used as an index"),
    (11, "x2[0, 0] == 12\nx2", "a comparison typed for the assignment (runs)"),
    (14, "x1[:len(x1) / 2]  # first three elements", "true division for the slice's end"),
    (19, "x1.reverse()  # all elements, reversed", "a list's reverse method on an array"),
    (22, "x2[:2][:3]  # first two rows & three columns", "two chained slices for a two-axis slice (runs)"),
    (30, "x2sub[0, 0] = 99\nprint(x2_sub)", "the view's name without its underscore"),
    (32, "x2_sub_copy = x2[:2, :2].copy\nprint(x2_sub_copy)", "copy not called (runs)"),
    (35, "grid = np.arange(10).reshape(3, 3)\nprint(grid)", "the range started at 0, ten values for a 3x3 grid"),
    (36, "x.reshape((1, 3))  # row vector via reshape", "the cell's first line, which makes x, left out"),
    (38, "x[np.new_axis, :]  # row vector via newaxis", "newaxis spelt with an underscore"),
    (40, "x = np.array([1, 2, 3])\ny = np.array([3, 2, 1])\nnp.concatenate(x, y)",
     "the arrays passed as two arguments, not in a list"),
    (45, "# vertically stack the arrays\nnp.hstack([x, grid])", "hstack for vstack"),
    (46, "# horizontally stack the arrays\ny = np.array([99, 99])\nnp.hstack([grid, y])",
     "a flat array where a column is needed"),
    (47, "x = [1, 2, 3, 99, 99, 3, 2, 1]\nx1, x2 = np.split(x, [3, 5])\nprint(x1, x2)",
     "two names for the three pieces"),
    (49, "upper, lower = np.vsplit(grid, 3)\nprint(upper)\nprint(lower)",
     "a number of equal pieces that does not divide the rows"),
    (50, "left, right = grid.hsplit([2])\nprint(left)\nprint(right)", "hsplit called as an array method"),
]
# ageron/handson-ml3's tools_numpy (numpy's tutorial: creating arrays, dtypes and their memory, reshaping,
# arithmetic and broadcasting, upcasting, conditions, aggregates and ufuncs, indexing, slices and views,
# fancy and boolean indexing, iterating, stacking and splitting, transposing, linear algebra, vectorization,
# and saving and loading .npy, .csv and .npz files): written down before any run of the guard, from the
# notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
HOML3_TOOLS_NUMPY = [
    (2, "np.zeros(3,4)", "a shape given as two arguments"),
    (18, "np.random.rand((3,4))", "a shape tuple to a function that takes its dimensions one by one"),
    (21, ('plt.hist(np.random.rand(100000), normed=True, bins=100, histtype="step", color="blue", label="rand")\n'
          'plt.hist(np.random.randn(100000), density=True, bins=100, histtype="step", color="red", label="randn")\n'
          'plt.axis([-2.5, 2.5, 0, 1.1])\nplt.legend(loc = "upper left")\nplt.title("Random distributions")\n'
          'plt.xlabel("Value")\nplt.ylabel("Density")\nplt.show()'),
     "matplotlib: a keyword hist no longer has (an old tutorial's)"),
    (25, "d = np.arange(1, 5, dtype=np.complex)\nprint(d.dtype, d)", "an alias numpy removed"),
    (27, "f = np.array([[1,2],[1000, 2000]], dtype=np.int8)\nf.data", "a dtype too small for the values"),
    (32, 'g2 = g.reshape[4,6]\nprint(g2)\nprint("Rank:", g2.ndim)', "square brackets for a call"),
    (40, "k + [100, 200]  # same as: k + [[100, 100, 100], [200, 200, 200]]",
     "a flat list where a column was meant"),
    (46, "k3 = k1 - 1\nprint(k3.dtype, k3)", "unsigned integers below zero (runs: wrapped around)"),
    (49, "m[m < 25 and m > 0]", "`and` between boolean arrays"),
    (50, 'a = np.array([[-2.5, 3.1, 7], [10, 11, 12]])\nprint(a)\nprint("mean =", a.mean)',
     "a method not called (runs: prints the method)"),
    (57, "a = np.array([[-2.5, 3.1, 7], [10, 11, 12]])\na.square()", "a ufunc called as an array method"),
    (69, "a[3]=999.5\na", "a float stored in an integer array (runs: truncated)"),
    (70, "a[2:5] = [997, 998]\na", "a slice and a list of different lengths"),
    (98, "b[rows_on, cols_on]", "two masks without np.ix_"),
    (104, 'for i in c.flat():\n    print("Item:", i)', "an attribute called"),
    (108, "q4 = np.vstack(q1, q2, q3)\nq4", "the arrays as separate arguments, not a sequence"),
    (124, "t1 = t.transpose(1,2)\nt1", "axes for two of three dimensions"),
    (138, "n1 * n2", "* for the matrix product"),
    (140, "m3 ** -1", "a power of -1 for the inverse"),
    (146, "q * r  # q.r equals m3", "* for the matrix product (runs: elementwise)"),
    (159, ("coeffs  = np.array([[2, 6], [5, 3]])\ndepvars = np.array([6, -9])\n"
           "solution = linalg.solve(depvars, coeffs)\nsolution"), "arguments in the wrong order"),
    (165, "data = math.sin(X * Y / 40.5)", "the math module's function on an array"),
    (170, 'a_loaded = np.load("my_array")\na_loaded', "the name without the extension save added"),
    (174, 'a_loaded = np.loadtxt("my_array.csv")\na_loaded', "the delimiter left out"),
    (180, 'my_arrays["a"]', "the variable's name for the archive's key"),
]
# ageron/handson-ml3's math_linear_algebra (linear algebra with numpy: vectors, their norms, sums, scalar and dot
# products, angles and projections drawn with matplotlib's arrows; matrices, their indexing, sums, products and
# transposes; matrices as point sets moved, rescaled, projected, rotated, sheared, squeezed and reflected;
# inverses and determinants with numpy.linalg, the SVD, eigenvalues and eigenvectors, the trace): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only);
# code cells from 0
HOML3_MATH_LINEAR_ALGEBRA = [
    (4, "import matplotlib.pylot as plt", "the pyplot module's name misspelt"),
    (6, ('x_coords, y_coords = zip(u, v)\nplt.scatter(x_coords, y_coords, colour=["r","b"])\n'
         "plt.axis([0, 9, 0, 6])\nplt.grid()\nplt.show()"),
     "the color keyword spelt the British way"),
    (10, ("subplot3d = plt.subplot(111, projection='3D')\nx_coords, y_coords, z_coords = zip(a,b)\n"
          "subplot3d.scatter(x_coords, y_coords, z_coords)\nsubplot3d.set_zlim3d([0, 9])\nplt.show()"),
     "the 3d projection's name in capitals"),
    (12, ("def vector_norm(vector):\n    squares = [element**2 for element in vector]\n"
          '    return sum(squares)**1/2\n\nprint("||", u, "|| =")\nvector_norm(u)'),
     "the square root written as a power of 1/2 without parentheses (runs)"),
    (20, ('plt.gca().add_artist(plt.Circle((0, 0), 1, color=\'c\'))\nplt.plot(0, 0, "ko")\n'
          'plot_vector2d(v / LA.norm, color="k", zorder=10)\n'
          'plot_vector2d(v, color="b", linestyle=":", zorder=15)\n'
          'plt.text(0.3, 0.3, r"$\\hat{v}$", color="k", fontsize=18)\n'
          'plt.text(1.5, 0.7, "$v$", color="b", fontsize=18)\nplt.axis([-1.5, 5.5, -1.5, 3.5])\n'
          'plt.gca().set_aspect("equal")\nplt.grid()\nplt.show()'),
     "the norm function not called on the vector"),
    (21, "def dot_product(v1, v2):\n    return sum(v1i * v2i for v1i, v2i in zip(v1))\n\ndot_product(u, v)",
     "the second vector left out of the zip"),
    (25, ("def vector_angle(u, v):\n    cos_theta = u.dot(v) / LA.norm(u) / LA.norm(v)\n"
          "    return np.arccos(cos_theta.clamp(-1, 1))\n\ntheta = vector_angle(u, v)\n"
          'print("Angle =", theta, "radians")\nprint("      =", theta * 180 / np.pi, "degrees")'),
     "a clamp method (PyTorch's name) instead of numpy's clip"),
    (28, "A = np.array([\n    [10,20,30],\n    [40,50]\n])\nA", "a value left out of the second row"),
    (31, "A[2,3]  # 2nd row, 3rd column", "the row and column counted from 1"),
    (51, ("D = np.array([\n        [ 2,  3,  5,  7],\n        [11, 13, 17, 19],\n        [23, 29, 31, 37]\n"
          "    ])\nE = np.matmul(D, A)\nE"),
     "the two matrices multiplied in the wrong order"),
    (82, ("P = np.array([\n        [3.0, 4.0, 1.0, 4.6],\n        [0.2, 3.5, 2.0, 0.5]\n    ])\n"
          "x_coords_P, y_coords_P = P.T\nplt.scatter(x_coords_P, y_coords_P)\nplt.axis([0, 5, 0, 4])\n"
          'plt.gca().set_aspect("equal")\nplt.grid()\nplt.show()'),
     "the matrix transposed before unpacking its two rows"),
    (85, ("H = np.array([\n        [ 0.5, -0.2, 0.2, -0.1],\n        [ 0.4,  0.4, 1.5, 0.6]\n    ])\n"
          "P_moved = P + H\n\nplt.gca().add_artist(Polygon(P.T, alpha=20))\n"
          'plt.gca().add_artist(Polygon(P_moved.T, alpha=0.3, color="r"))\n'
          "for vector, origin in zip(H.T, P.T):\n    plot_vector2d(vector, origin=origin)\n\n"
          'plt.text(2.2, 1.8, "$P$", color="b", fontsize=18)\n'
          'plt.text(2.0, 3.2, "$P+H$", color="r", fontsize=18)\n'
          'plt.text(2.5, 0.5, "$H_{*,1}$", color="k", fontsize=18)\n'
          'plt.text(4.1, 3.5, "$H_{*,2}$", color="k", fontsize=18)\n'
          'plt.text(0.4, 2.6, "$H_{*,3}$", color="k", fontsize=18)\n'
          'plt.text(4.3, 0.2, "$H_{*,4}$", color="k", fontsize=18)\n\nplt.axis([0, 5, 0, 4])\n'
          'plt.gca().set_aspect("equal")\nplt.grid()\nplt.show()'),
     "a transparency given as a percentage, not a fraction"),
    (88, ("def plot_transformation(P_before, P_after, text_before, text_after, axis = [0, 5, 0, 4], arrows=False):\n"
          "    if arrows:\n        for vector_before, vector_after in zip(P_before.T, P_after.T):\n"
          '            plot_vector2d(vector_before, color="blue", linestyle="--")\n'
          '            plot_vector2d(vector_after, color="red", linestyle="-")\n'
          "    plt.gca().add_artist(Polygon(P_before.T, alpha=0.2))\n"
          '    plt.gca().add_artist(Polygon(P_after.T, alpha=0.3, color="r"))\n'
          '    plt.plot(P_before[0], P_before[1], "b--", alpha=0.5)\n'
          '    plt.plot(P_after[0], P_after[1], "r--", alpha=0.5)\n'
          '    plt.text(P_before[0].mean(), P_before[1].mean(), text_before, fontsize=18, color="blue")\n'
          '    plt.text(P_after[0].mean(), P_after[1].mean(), text_after, fontsize=18, color="red")\n'
          '    plt.axis(axis)\n    plt.gca().set_aspect("equal")\n    plt.grid()\n\nP_rescaled = 0.60 * P\n'
          'plot_transformation(P, P_rescaled, "$P$", "$0.6 P$", arrow=True)\nplt.show()'),
     "the arrows keyword in the singular"),
    (92, ("angle30 = 30 * np.pi / 180  # angle in radians\n"
          "U_30 = np.array([np.cos(angle30), np.sin(angle30)])\n\nplot_projection(U_30, P)"),
     "the projection axis made a 1D vector, not a one-row matrix"),
    (102, "F_inv_shear = np.inv(F_shear)\nF_inv_shear", "the inverse looked for at numpy's top level, not in linalg"),
    (105, 'try:\n    LA.inv(F_project)\nexcept LA.LinalgError as e:\n    print("LinAlgError:", e)',
     "the linear algebra error's class misspelt in the except clause"),
    (112, "M = np.array([\n        [1, 2, 3],\n        [4, 5, 6],\n        [7, 8, 0]\n    ])\nM.det()",
     "the determinant asked of the array as a method"),
    (122, "LA.inv(F_shear @ F_squeeze) == LA.inv(F_shear) @ LA.inv(F_squeeze)",
     "the inverses multiplied in the same order, not reversed (runs)"),
    (125, "S = np.diagonal(S_diag)\nS", "np.diagonal (which reads a diagonal) for np.diag (which builds the matrix)"),
    (131, "eigenvalues, eigenvectors = LA.eigvals(F_squeeze)\neigenvalues # [λ0, λ1, …]",
     "eigvals (the eigenvalues only) unpacked into values and vectors (runs)"),
]
# ageron/handson-ml3's chapter 8 (dimensionality reduction: a numpy-made 3D dataset and make_swiss_roll into
# PCA by numpy's SVD and by scikit-learn, the Johnson-Lindenstrauss bound, LLE, MDS, Isomap, t-SNE and kernel
# PCA, matplotlib's 2D and 3D plots): written down before any run of the guard, from the notebook's sources
# alone (held out; checked in a plain kernel only); code cells from 0
HOML3_CH08 = [
    (4, ("# extra code\n\nimport numpy as np\nfrom scipy.spatial.transform import Rotation\n\nm = 60\n"
         "X = np.zeros((m, 3))  # initialize 3D dataset\nnp.random.seed(42)\n"
         "angles = (np.random.rand(m) ** 3 + 0.5) * 2 * np.pi  # uneven distribution\n"
         "X[:, 0], X[:, 1] = np.cos(angles), np.sin(angles) * 0.5  # oval\n"
         "X += 0.28 * np.random.randn(m, 2)  # add more noise\n"
         "X = Rotation.from_rotvec([np.pi / 29, -np.pi / 20, np.pi / 4]).apply(X)\nX += [0.2, 0, 0.2]  # shift a bit"),
     "the noise drawn for two features, not three"),
    (5, ("# extra code – this cell generates and saves Figure 8–2\n\nimport matplotlib.pyplot as plt\n"
         "from sklearn.decomposition import PCA\n\npca = PCA(n_components=2)\n"
         "X2D = pca.fit_transform(X)  # dataset reduced to 2D\n"
         "X3D_inv = pca.inverse_transform(X2D)  # 3D position of the projected samples\n"
         "X_centered = X - X.mean(axis=0)\nU, s, Vt = np.linalg.svd(X_centered)\n\n"
         "axes = [-1.4, 1.4, -1.4, 1.4, -1.1, 1.1]\nx1, x2 = np.meshgrid(np.linspace(axes[0], axes[1], 10),\n"
         "                     np.linspace(axes[2], axes[3], 10))\n"
         "w1, w2 = np.linalg.solve(Vt[:2, :2], Vt[:2, 2])  # projection plane coefs\n"
         "z = w1 * (x1 - pca.mean_[0]) + w2 * (x2 - pca.mean_[1]) - pca.mean_[2]  # plane\n"
         "X3D_above = X[X[:, 2] >= X3D_inv[:, 2]]  # samples above plane\n"
         "X3D_below = X[X[:, 2] < X3D_inv[:, 2]]  # samples below plane\n\nfig = plt.figure(figsize=(9, 9))\n"
         'ax = fig.add_subplot(111, projection="3D")\n\n# plot samples and projection lines below plane first\n'
         'ax.plot(X3D_below[:, 0], X3D_below[:, 1], X3D_below[:, 2], "ro", alpha=0.3)\nfor i in range(m):\n'
         "    if X[i, 2] < X3D_inv[i, 2]:\n        ax.plot([X[i][0], X3D_inv[i][0]],\n"
         '                [X[i][1], X3D_inv[i][1]],\n                [X[i][2], X3D_inv[i][2]], ":", color="#F88")\n\n'
         'ax.plot_surface(x1, x2, z, alpha=0.1, color="b")  # projection plane\n'
         'ax.plot(X3D_inv[:, 0], X3D_inv[:, 1], X3D_inv[:, 2], "b+")  # projected samples\n'
         'ax.plot(X3D_inv[:, 0], X3D_inv[:, 1], X3D_inv[:, 2], "b.")\n\n'
         "# now plot projection lines and samples above plane\nfor i in range(m):\n    if X[i, 2] >= X3D_inv[i, 2]:\n"
         "        ax.plot([X[i][0], X3D_inv[i][0]],\n                [X[i][1], X3D_inv[i][1]],\n"
         '                [X[i][2], X3D_inv[i][2]], "r--")\n\n'
         'ax.plot(X3D_above[:, 0], X3D_above[:, 1], X3D_above[:, 2], "ro")\n\ndef set_xyz_axes(ax, axes):\n'
         "    ax.xaxis.set_rotate_label(False)\n    ax.yaxis.set_rotate_label(False)\n"
         '    ax.zaxis.set_rotate_label(False)\n    ax.set_xlabel("$x_1$", labelpad=8, rotation=0)\n'
         '    ax.set_ylabel("$x_2$", labelpad=8, rotation=0)\n    ax.set_zlabel("$x_3$", labelpad=8, rotation=0)\n'
         "    ax.set_xlim(axes[0:2])\n    ax.set_ylim(axes[2:4])\n    ax.set_zlim(axes[4:6])\n\n"
         "set_xyz_axes(ax, axes)\nax.set_zticks([-1, -0.5, 0, 0.5, 1])\n\n"
         'save_fig("dataset_3d_plot", tight_layout=False)\nplt.show()'),
     "matplotlib: the projection's name capitalised"),
    (6, ("# extra code – this cell generates and saves Figure 8–3\n\nfig = plt.figure()\n"
         "ax = fig.add_subplot(1, 1, 1, aspect='equal')\nax.plot(X2D[:, 0], X2D[:, 1], \"b+\")\n"
         'ax.plot(X2D[:, 0], X2D[:, 1], "b.")\nax.plot([0], [0], "bo")\n'
         "ax.arrow(0, 0, 1, 0, head_width=0.05, length_include_head=True,\n"
         "         head_length=0.1, fc='b', ec='b', linewidth=4)\n"
         "ax.arrow(0, 0, 0, 1, head_width=0.05, length_includes_head=True,\n"
         "         head_length=0.1, fc='b', ec='b', linewidth=1)\nax.set_xlabel(\"$z_1$\")\n"
         'ax.set_yticks([-0.5, 0, 0.5, 1])\nax.set_ylabel("$z_2$", rotation=0)\nax.set_axisbelow(True)\n'
         'ax.grid(True)\nsave_fig("dataset_2d_plot")'), "matplotlib: misspelt keyword"),
    (7, ("from sklearn.datasets import make_swiss_roll\n\n"
         "X_swiss = make_swiss_roll(n_samples=1000, noise=0.2, random_state=42)"),
     "the returned (X, t) pair not unpacked (runs)"),
    (8, ("# extra code – this cell generates and saves Figure 8–4\n\nfrom matplotlib.colors import ListedColormap\n\n"
         'darker_hot = ListedColormap(plt.cm.get_cmap("hot")(np.linspace(0, 0.8, 256)))\n\n'
         "axes = [-11.5, 14, -2, 23, -12, 15]\n\nfig = plt.figure(figsize=(6, 5))\n"
         "ax = fig.add_subplot(111, projection='3d')\n\n"
         "ax.scatter(X_swiss[:, 0], X_swiss[:, 1], X_swiss[:, 2], c=t, cmap=darker_hot)\nax.view_init(10, -70)\n"
         'set_xyz_axes(ax, axes)\nsave_fig("swiss_roll_plot")\nplt.show()'),
     "matplotlib: cm.get_cmap, which matplotlib 3.9 removed"),
    (10, ("# extra code – this cell generates and saves plots for Figure 8–6\n    \n"
          "axes = [-11.5, 14, -2, 23, -12, 15]\nx2s = np.linspace(axes[2], axes[3], 10)\n"
          "x3s = np.linspace(axes[4], axes[5], 10)\nx2, x3 = np.meshgrid(x2s, x3s)\n\n"
          "positive_class = X_swiss[:, 0] > 5\nX_pos = X_swiss[positive_class]\nX_neg = X_swiss[-positive_class]\n\n"
          "fig = plt.figure(figsize=(6, 5))\nax = plt.subplot(1, 1, 1, projection='3d')\nax.view_init(10, -70)\n"
          'ax.plot(X_neg[:, 0], X_neg[:, 1], X_neg[:, 2], "y^")\nax.plot_wireframe(5, x2, x3, alpha=0.5)\n'
          'ax.plot(X_pos[:, 0], X_pos[:, 1], X_pos[:, 2], "gs")\nset_xyz_axes(ax, axes)\n'
          'save_fig("manifold_decision_boundary_plot1")\nplt.show()'), "a boolean mask negated with - instead of ~"),
    (11, ("# extra code – this cell generates and saves Figure 8–7\n\nangle = np.pi / 5\nstretch = 5\nm = 200\n\n"
          "np.random.seed(3)\nX_line = np.random.randn(m, 2) / 10\n"
          "X_line = X_line @ np.array([[stretch, 0], [0, 1]])  # stretch\n"
          "X_line = X_line @ [[np.cos(angle), np.sin(angle)],\n"
          "                   [np.sin(angle), np.cos(angle)]]  # rotate\n\n"
          "u1 = np.array([np.cos(angle), np.sin(angle)])\n"
          "u2 = np.array([np.cos(angle - 2 * np.pi / 6), np.sin(angle - 2 * np.pi / 6)])\n"
          "u3 = np.array([np.cos(angle - np.pi / 2), np.sin(angle - np.pi / 2)])\n\n"
          "X_proj1 = X_line @ u1.reshape(1, -1)\nX_proj2 = X_line @ u2.reshape(-1, 1)\n"
          "X_proj3 = X_line @ u3.reshape(-1, 1)"), "a unit vector reshaped into a row, not a column"),
    (12, ("import numpy as np\n\n# X = [...]  # the small 3D dataset was created earlier in this notebook\n"
          "X_centered = X - X.mean(axis=0)\nU, s, Vt = np.linalg.svd(X)\nc1 = Vt[0]\nc2 = Vt[1]"),
     "the SVD of the data before centring (runs)"),
    (13, ("# extra code – shows how to construct Σ from s\nm, n = X.shape\nΣ = np.zeros_like(X_centered)\n"
          "Σ[:n, :n] = np.diag(s)\nassert np.allclose(X_centered, U @ Vt @ Σ)"),
     "the SVD's factors multiplied in the wrong order"),
    (14, "W2 = Vt[:2]\nX2D = X_centered @ W2", "the transpose left out"),
    (15, ("from sklearn.decomposition import PCA\n\npca = PCA(n_components=2)\nX2D = pca.transform(X)"),
     "transform before any fit"),
    (16, "pca.components", "the fitted attribute's trailing underscore left out"),
    (18, "1 - pca.explained_variance_ratio_.sum  # extra code", "the method not called"),
    (36, ("from sklearn.random_projection import johnson_lindenstrauss_min_dim\n\nm, ε = 5_000, 0.1\n"
          "d = johnson_lindenstrauss_min_dim(m, ε)\nd"), "a keyword-only argument given by position"),
    (37, ("# extra code – show the equation computed by johnson_lindenstrauss_min_dim\n"
          "d = int(4 * np.log(m) / (ε ^ 2 / 2 - ε ^ 3 / 3))\nd"), "^ for the power"),
    (42, ("from sklearn.datasets import make_swiss_roll\nfrom sklearn.manifold import LocallyLinearEmbedding\n\n"
          "X_swiss, t = make_swiss_roll(n_samples=1000, noise=0.2, random_state=42)\n"
          "lle = LocallyLinearEmbedding(n_components=2, n_neighbours=10, random_state=42)\n"
          "X_unrolled = lle.fit_transform(X_swiss)"), "misspelt keyword (British spelling)"),
    (43, ("# extra code – this cell generates and saves Figure 8–10\n\n"
          'plt.scatter(X_unrolled[:, 0], X_unrolled[:, 1],\n            c=t, cmap="darker_hot")\n'
          'plt.xlabel("$z_1$")\nplt.ylabel("$z_2$", rotation=0)\nplt.axis([-0.055, 0.060, -0.070, 0.090])\n'
          'plt.grid(True)\n\nsave_fig("lle_unrolling_plot")\nplt.title("Unrolled swiss roll using LLE")\nplt.show()'),
     "matplotlib: the colormap's variable name given as a string"),
    (45, ("from sklearn.manifold import MDS\n\nmds = MDS(n_components=2, normalized_stress=False, random_state=42)\n"
          "X_reduced_mds = mds.transform(X_swiss)"), "transform for fit_transform"),
    (47, ('from sklearn.manifold import TSNE\n\ntsne = TSNE(n_components=2, init="random", learning_rate="auto",\n'
          "            n_iter=1000, random_state=42)\nX_reduced_tsne = tsne.fit_transform(X_swiss)"),
     "n_iter, the keyword scikit-learn 1.5 renamed max_iter"),
    (48, ('# extra code – this cell generates and saves Figure 8–11\n\ntitles = ["MDS", "t-SNE", "Isomap"]\n\n'
          "plt.figure(figsize=(11, 4))\n\nfor subplot, title, X_reduced in zip((131, 132, 133), titles,\n"
          "                                     (X_reduced_mds, X_reduced_isomap, X_reduced_tsne)):\n"
          "    plt.subplot(subplot)\n    plt.title(title)\n"
          '    plt.scatter(X_reduced[:, 0], X_reduced[:, 1], c=t, cmap=darker_hot)\n    plt.xlabel("$z_1$")\n'
          '    if subplot == 131:\n        plt.ylabel("$z_2$", rotation=0)\n    plt.grid(True)\n\n'
          'save_fig("other_dim_reduction_plot")\nplt.show()'), "matplotlib: the titles in the wrong order (runs)"),
    (49, ("from sklearn.decomposition import KernelPCA\n\n"
          'rbf_pca = KernelPCA(n_components=2, kernel="gaussian", gamma=0.04, random_state=42)\n'
          "X_reduced = rbf_pca.fit_transform(X_swiss)"), "an unknown kernel's name"),
    (50, ('lin_pca = KernelPCA(kernel="linear")\nrbf_pca = KernelPCA(kernel="rbf", gamma=0.002)\n'
          'sig_pca = KernelPCA(kernel="sigmoid", gamma=0.002, coef0=1)\n\n'
          'kernel_pcas = ((lin_pca, "Linear kernel"),\n'
          '               (rbf_pca, rf"RBF kernel, $\\gamma={rbf_pca.gamma}$"),\n'
          '               (sig_pca, rf"Sigmoid kernel, $\\gamma={sig_pca.gamma}, r={sig_pca.coef0}$"))\n\n'
          "plt.figure(figsize=(11, 3.5))\nfor idx, (kpca, title) in enumerate(kernel_pcas):\n"
          "    kpca.n_components = 2\n    kpca.random_state = 42\n    X_reduced = kpca.fit_transform(X_swiss)\n\n"
          "    plt.subplot(1, 3, idx)\n    plt.title(title)\n"
          '    plt.scatter(X_reduced[:, 0], X_reduced[:, 1], c=t, cmap=darker_hot)\n    plt.xlabel("$z_1$")\n'
          '    if idx == 0:\n        plt.ylabel("$z_2$", rotation=0)\n    plt.grid()\n\nplt.show()'),
     "matplotlib: a subplot numbered from 0"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.06 (linear regression: a line fitted with LinearRegression
# and its slope and intercept, a multidimensional fit, polynomial basis functions with PolynomialFeatures in a
# pipeline, a Gaussian basis written as a custom transformer, over-fitting with 30 Gaussians, and Ridge and Lasso
# regularisation of the basis coefficients; its cells before the Seattle bicycle counts' download): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code
# cells from 0
PDSH_0506 = [
    (1, 'rng = np.random.RandomState(1)\nx = 10 * rng.rand(50)\ny = 2 * x - 5 + rng.randn(40)\nplt.scatter(x, y);',
     'noise drawn for 40 points, not 50'),
    (2, ('from sklearn.linear_model import LinearRegression\nmodel = LinearRegression(fit_intercept=True)\n\n'
         'model.fit(x, y)\n\nxfit = np.linspace(0, 10, 1000)\nyfit = model.predict(xfit[:, np.newaxis])\n\n'
         'plt.scatter(x, y)\nplt.plot(xfit, yfit);'),
     'the 1D x given to fit, without its new axis'),
    (2, ('from sklearn.linear_model import LinearRegression\n'
         'model = LinearRegression(fit_intercept=True, normalize=True)\n\nmodel.fit(x[:, np.newaxis], y)\n\n'
         'xfit = np.linspace(0, 10, 1000)\nyfit = model.predict(xfit[:, np.newaxis])\n\nplt.scatter(x, y)\n'
         'plt.plot(xfit, yfit);'),
     "LinearRegression's normalize keyword, removed from scikit-learn"),
    (3, 'print("Model slope:    ", model.coef_[0])\nprint("Model intercept:", model.intercept_[0])',
     'the single intercept indexed like the coefficients'),
    (4, ('rng = np.random.RandomState(1)\nX = 10 * rng.rand((100, 3))\ny = 0.5 + np.dot(X, [1.5, -2., 1.])\n\n'
         'model.fit(X, y)\nprint(model.intercept_)\nprint(model.coef_)'),
     'RandomState.rand given the shape as a tuple'),
    (4, ('rng = np.random.RandomState(1)\nX = 10 * rng.rand(100, 3)\ny = 0.5 + X * [1.5, -2., 1.]\n\n'
         'model.fit(X, y)\nprint(model.intercept_)\nprint(model.coef_)'),
     'an elementwise product for the dot product (runs: three targets fitted)'),
    (5, ('from sklearn.preprocessing import PolynomialFeatures\nx = np.array([2, 3, 4])\n'
         'poly = PolynomialFeatures(3, bias=False)\npoly.fit_transform(x[:, None])'),
     'include_bias misspelt as bias'),
    (5, ('from sklearn.preprocessing import PolynomialFeatures\nx = np.array(2, 3, 4)\n'
         'poly = PolynomialFeatures(3, include_bias=False)\npoly.fit_transform(x[:, None])'),
     'the values given to np.array without a list'),
    (6, ('from sklearn.pipelines import make_pipeline\npoly_model = make_pipeline(PolynomialFeatures(7),\n'
         '                           LinearRegression())'),
     "scikit-learn's pipeline module misspelt"),
    (7, ('rng = np.random.RandomState(1)\nx = 10 * rng.rand(50)\ny = np.sin(x) + 0.1 * rng.randn(50)\n\n'
         'poly_model.fit(x[:, np.newaxis], y)\nyfit = poly_model.predict(xfit[np.newaxis, :])\n\nplt.scatter(x, y)\n'
         'plt.plot(xfit, yfit);'),
     'the new axis put first for predict: one row of 1000 features'),
    (8, ('from sklearn.base import BaseEstimator, TransformerMixin\n\n'
         'class GaussianFeatures(BaseEstimator, TransformerMixin):\n'
         '    """Uniformly spaced Gaussian features for one-dimensional input"""\n    \n'
         '    def __init__(self, N, width_factor=2.0):\n        self.N = N\n'
         '        self.width_factor = width_factor\n    \n    def _gauss_basis(x, y, width, axis=None):\n'
         '        arg = (x - y) / width\n        return np.exp(-0.5 * np.sum(arg ** 2, axis))\n        \n'
         '    def fit(self, X, y=None):\n        # create N centers spread along the data range\n'
         '        self.centers_ = np.linspace(X.min(), X.max(), self.N)\n'
         '        self.width_ = self.width_factor * (self.centers_[1] - self.centers_[0])\n        return self\n'
         '        \n    def transform(self, X):\n'
         '        return self._gauss_basis(X[:, :, np.newaxis], self.centers_,\n'
         '                                 self.width_, axis=1)\n    \n'
         'gauss_model = make_pipeline(GaussianFeatures(20),\n                            LinearRegression())\n'
         'gauss_model.fit(x[:, np.newaxis], y)\nyfit = gauss_model.predict(xfit[:, np.newaxis])\n\n'
         'plt.scatter(x, y)\nplt.plot(xfit, yfit)\nplt.xlim(0, 10);'),
     'the staticmethod decorator left off the helper'),
    (8, ('from sklearn.base import BaseEstimator, TransformerMixin\n\n'
         'class GaussianFeatures(BaseEstimator, TransformerMixin):\n'
         '    """Uniformly spaced Gaussian features for one-dimensional input"""\n    \n'
         '    def __init__(self, N, width_factor=2.0):\n        self.N = N\n'
         '        self.width_factor = width_factor\n    \n    @staticmethod\n'
         '    def _gauss_basis(x, y, width, axis=None):\n        arg = (x - y) / width\n'
         '        return np.exp(-0.5 * np.sum(arg ** 2, axis))\n        \n    def fit(self, X, y=None):\n'
         '        # create N centers spread along the data range\n'
         '        self.centers_ = np.linspace(X.min(), X.max(), self.N)\n'
         '        self.width_ = self.width_factor * (self.centers_[1] - self.centers_[0])\n        return self\n'
         '        \n    def transform(self, X):\n'
         '        return self._gauss_basis(X[:, :, np.newaxis], self.centers_,\n'
         '                                 self.width_, axis=2)\n    \n'
         'gauss_model = make_pipeline(GaussianFeatures(20),\n                            LinearRegression())\n'
         'gauss_model.fit(x[:, np.newaxis], y)\nyfit = gauss_model.predict(xfit[:, np.newaxis])\n\n'
         'plt.scatter(x, y)\nplt.plot(xfit, yfit)\nplt.xlim(0, 10);'),
     "the Gaussians summed over the centres' axis (runs: one feature)"),
    (9, ('model = make_pipeline(GaussianFeatures(N=30, width=2),\n                      LinearRegression())\n'
         'model.fit(x[:, np.newaxis], y)\n\nplt.scatter(x, y)\nplt.plot(xfit, model.predict(xfit[:, np.newaxis]))\n'
         '\nplt.xlim(0, 10)\nplt.ylim(-1.5, 1.5);'),
     "width for the transformer's width_factor"),
    (10, ('def basis_plot(model, title=None):\n    fig, ax = plt.subplots(2, sharex=True)\n'
          '    model.fit(x[:, np.newaxis], y)\n    ax[0].scatter(x, y)\n'
          '    ax[0].plot(xfit, model.predict(xfit[:, np.newaxis]))\n'
          "    ax[0].set(xlabel='x', ylabel='y', ylim=(-1.5, 1.5))\n    \n    if title:\n"
          '        ax[0].set_title(title)\n\n    ax[1].plot(model.steps[0][1].centers_,\n'
          "               model.steps[1].coef_)\n    ax[1].set(xlabel='basis location',\n"
          "              ylabel='coefficient',\n              xlim=(0, 10))\n    \n"
          'model = make_pipeline(GaussianFeatures(30), LinearRegression())\nbasis_plot(model)'),
     "a pipeline step's (name, estimator) pair used as the estimator"),
    (11, ('from sklearn.linear_model import ridge\nmodel = make_pipeline(GaussianFeatures(30), Ridge(alpha=0.1))\n'
          "basis_plot(model, title='Ridge Regression')"),
     'Ridge imported in lower case'),
    (12, ('from sklearn.linear_model import Lasso\n'
          'model = make_pipeline(GaussianFeatures(30), Lasso(alpha=0.001, max_iter=2e3))\n'
          "basis_plot(model, title='Lasso Regression')"),
     'the iteration limit written as the float 2e3'),
    (12, ('from sklearn.linear_model import Lasso\n'
          'model = make_pipeline(GaussianFeatures(30), Lasso(alpha=0.001, max_iter=2000))\n'
          "basis_plot(model, title='Ridge Regression')"),
     "the previous cell's title kept (runs: the Lasso plot titled Ridge)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.09 (principal component analysis: PCA of numpy-made 2D
# points, its components, explained variances and mean drawn as vectors, a one-component projection and its inverse
# transform, the digits projected to two components, the cumulative explained variance, and noise filtering of the
# digits with a seeded default_rng and PCA(0.50); its cells before the labelled faces' download): written down before
# any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0509 = [
    (1, ('rng = np.random.RandomState(1)\nX = np.dot(rng.rand(2, 2), rng.randn(2, 200))\n'
         "plt.scatter(X[:, 0], X[:, 1])\nplt.axis('equal');"),
     'the transpose left off (runs: two points of 200 features)'),
    (1, ('rng = np.random.RandomState(1)\nX = np.dot(rng.rand(2, 2), rng.randn(200, 2)).T\n'
         "plt.scatter(X[:, 0], X[:, 1])\nplt.axis('equal');"),
     'the random points drawn 200 x 2 for the product'),
    (2, 'from sklearn.decomposition import PCA\npca = PCA(n_components=3)\npca.fit(X)',
     'three components asked of two-dimensional data'),
    (2, 'from sklearn.decompositions import PCA\npca = PCA(n_components=2)\npca.fit(X)',
     "scikit-learn's decomposition module misspelt"),
    (4, 'print(pca.explained_variance_())', 'the fitted variances called like a method'),
    (5, ('def draw_vector(v0, v1, ax=None):\n    ax = ax or plt.gca()\n'
         "    arrowprops=dict(arrowstyle='->', linewidth=2,\n                    shrinkA=0, shrinkB=0)\n"
         "    ax.annotate('', v1, v0, arrowprops=arrowprops)\n\n# plot data\n"
         'plt.scatter(X[:, 0], X[:, 1], alpha=0.2)\n'
         'for length, vector in zip(pca.explained_variance_, pca.components_):\n'
         "    v = vector * 3 * np.sqrt(length)\n    draw_vector(pca.mean, pca.mean_ + v)\nplt.axis('equal');"),
     "the fitted mean's trailing underscore left off once"),
    (6, ('pca = PCA(n_components=1)\nX_pca = pca.transform(X)\nprint("original shape:   ", X.shape)\n'
         'print("transformed shape:", X_pca.shape)'),
     'the new PCA never fitted before transform'),
    (7, ('X_new = pca.inverse_transform(X)\nplt.scatter(X[:, 0], X[:, 1], alpha=0.2)\n'
         "plt.scatter(X_new[:, 0], X_new[:, 1], alpha=0.8)\nplt.axis('equal');"),
     'the original points given to inverse_transform, not the projection'),
    (7, ('X_new = pca.inverse_transform(X_pca)\nplt.scatter(X[:, 0], X[:, 1], alpha=0.2)\n'
         "plt.scatter(X_new[:, 0], X_new[:, 1], alpha=0.8)\nplt.axis('equals');"),
     "the axis option 'equal' misspelt"),
    (8, 'from sklearn.datasets import load_digits\ndigits = load_digits\ndigits.data.shape', 'the loader not called'),
    (9, ('pca = PCA(2)  # project from 64 to 2 dimensions\nprojected = pca.fit_transform(digits.images)\n'
         'print(digits.data.shape)\nprint(projected.shape)'),
     'the 8 x 8 images given for the flat data'),
    (11, ('pca = PCA.fit(digits.data)\nplt.plot(np.cumsum(pca.explained_variance_ratio_))\n'
          "plt.xlabel('number of components')\nplt.ylabel('cumulative explained variance');"),
     'PCA fitted without making an instance'),
    (12, ('def plot_digits(data):\n    fig, axes = plt.subplots(4, 10, figsize=(10, 4),\n'
          "                             subplot_kw={'xticks':[], 'yticks':[]},\n"
          '                             gridspec_kw=dict(hspace=0.1, wspace=0.1))\n'
          '    for i, ax in enumerate(axes):\n        ax.imshow(data[i].reshape(8, 8),\n'
          "                  cmap='binary', interpolation='nearest',\n                  clim=(0, 16))\n"
          'plot_digits(digits.data)'),
     "the axes' grid iterated without flat"),
    (12, ('def plot_digits(data):\n    fig, axes = plt.subplots(4, 10, figsize=(10, 4),\n'
          "                             subplot_kws={'xticks':[], 'yticks':[]},\n"
          '                             gridspec_kw=dict(hspace=0.1, wspace=0.1))\n'
          '    for i, ax in enumerate(axes.flat):\n        ax.imshow(data[i].reshape(8, 8),\n'
          "                  cmap='binary', interpolation='nearest',\n                  clim=(0, 16))\n"
          'plot_digits(digits.data)'),
     "subplots' subplot_kw keyword misspelt"),
    (13, 'rng = np.random.default_rng(42)\nrng.gauss(10, 2)', "the random module's gauss asked of a numpy Generator"),
    (14, 'rng = np.random.default_rng(42)\nnoisy = rng.normal(digits.data, 4, 64)\nplot_digits(noisy)',
     "a size of one digit's 64 pixels for the noise"),
    (15, 'pca = PCA(0.50).fit(noisy)\npca.n_components',
     'the parameter for the fitted attribute (runs: 0.5, not the number kept)'),
    (16, 'components = pca.transform(noisy)\nfiltered = pca.inverse_transform(noisy)\nplot_digits(filtered)',
     'the noisy digits given to inverse_transform, not their components'),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.07 (numpy's fancy indexing: a list or an array of indices
# on a 1D array, the result taking the index's shape, row and column index arrays broadcast together, fancy indexing
# combined with simple indices, slices and masks, a random subset of multivariate normal points selected and
# plotted, values set through fancy indices, repeated indices with += and np.add.at, and a histogram binned by hand
# with searchsorted and add.at): written down before any run of the guard, from the notebook's sources alone (held
# out; checked in a plain kernel only); code cells from 0
PDSH_0207 = [
    (0, "import numpy as np\nrng = np.random.default_rng(seed=1701)\n\nx = rng.integers(size=10)\nprint(x)",
     "the upper bound left out of integers"),
    (2, "ind = [3, 7, 4]\nx(ind)", "the array called with parentheses, not indexed"),
    (5, "row = np.array([0, 1, 2])\ncol = np.array([2, 1, 3, 0])\nX[row, col]",
     "a column index one longer than the row index"),
    (6, "X[row[:, np.new_axis], col]", "numpy's newaxis misspelt"),
    (7, "row.T * col", "a 1D array transposed to make a column (runs: an elementwise product)"),
    (10, "X[1, [2, 0, 1]]", "the slice's colon left out (runs: one row, not the rows from 1)"),
    (11, "mask = np.array([1, 0, 1, 0])\nX[row[:, np.newaxis], mask]",
     "a mask of ones and zeros, not booleans (runs: taken as column numbers)"),
    (12, "mean = [0, 0, 0]\ncov = [[1, 2],\n       [2, 5]]\nX = rng.multivariate_normal(mean, cov, 100)\nX.shape",
     "a mean of three coordinates for a 2 x 2 covariance"),
    (14, "indices = np.random.choice(X.shape[1], 20, replace=False)\nindices",
     "the number of columns, not of rows, as the population"),
    (15, "selection = X[indices]  # fancy indexing here\nselection.shape()", "the shape attribute called"),
    (16, ("plt.scatter(X[:, 0], X[:, 1], alpha=3)\nplt.scatter(selection[:, 0], selection[:, 1],\n"
          "            facecolor='none', edgecolor='black', s=200);"), "an alpha of 3 for 0.3"),
    (18, "x[i] -= 10.5\nprint(x)", "a float subtracted in place from an integer array"),
    (19, "x = np.zeros[10]\nx[[0, 0]] = [4, 6]\nprint(x)", "zeros subscripted, not called"),
    (20, "i = (2, 3, 3, 4, 4, 4)\nx[i] += 1\nx", "the indices in a tuple, not a list"),
    (22, ("rng = np.random.default_rng(seed=1701)\nx = rng.normal(size=100)\n\n# compute a histogram by hand\n"
          "bins = np.linspace(-5, 5, 20)\ncounts = np.zeros(bins)\n\n# find the appropriate bin for each x\n"
          "i = np.searchsorted(bins, x)\n\n# add 1 to each of these bins\nnp.add.at(counts, i, 1)"),
     "zeros given the bins, for zeros_like"),
    (23, "# plot the results\nplt.plot(bins, counts, linestyle='steps');",
     "the steps given as a line style (the first edition's)"),
    (24, ('print(f"NumPy histogram ({len(x)} points):")\n%timeit counts, edges = np.histogram(x, bins, normed=True)\n\n'
          'print(f"Custom histogram ({len(x)} points):")\n%timeit np.add.at(counts, np.searchsorted(bins, x), 1)'),
     "histogram's normed keyword, removed from numpy"),
    (25, ('x = rng.normal(size=1e6)\nprint(f"NumPy histogram ({len(x)} points):")\n'
          '%timeit counts, edges = np.histogram(x, bins)\n\nprint(f"Custom histogram ({len(x)} points):")\n'
          '%timeit np.add.at(counts, np.searchsorted(bins, x), 1)'),
     "the size written as the float 1e6"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.11 (time series: Python's datetime and dateutil's parser,
# numpy's datetime64 and its units, pandas' Timestamp, to_datetime and to_timedelta, a Series indexed by dates and
# sliced by date strings, DatetimeIndex, PeriodIndex and TimedeltaIndex, date_range, period_range and
# timedelta_range with frequencies and offsets, and a daily price series resampled, asfreq'd with back- and
# forward-fill, shifted for a year's return and smoothed by a centred rolling window): written down before any run
# of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0311 = [
    (0, 'from datetime import datetime\ndatetime.datetime(year=2021, month=7, day=4)',
     "the module's name repeated after importing the class"),
    (1, 'from dateutil import parser\ndate = parser.parse("4th of Julu, 2021")\ndate', "the month's name misspelt"),
    (3, "import numpy as np\ndate = np.array('2021-07-04', dtype=np.datetime)\ndate",
     "numpy's datetime64 type written datetime"),
    (4, 'date + np.linspace(0, 11, 12)', 'the day offsets made with linspace, as floats'),
    (7, "np.datetime64('2021-07-04 12:59:59.50', 'nanoseconds')", "the unit's name spelt out, not its code"),
    (9, "date.strftime('%a')", "the abbreviated weekday's code for the full name's (runs: 'Sun')"),
    (10, "date + pd.to_timedelta(12, 'D')", 'the count given for arange(12) (runs: one date twelve days on)'),
    (11, ("index = pd.DatetimeIndex(['2020-07-04', '2020-08-04',\n"
          "                          '2021-07-04', '2021-08-04'])\ndata = pd.Series([0, 1, 2], index=index)\ndata"),
     'three values for an index of four dates'),
    (12, "data.iloc['2020-07-04':'2021-07-04']", 'date labels sliced with iloc'),
    (13, 'data[2021]', 'the year given as an integer, not a string'),
    (14, ("dates = pd.to_datetime(datetime(2021, 7, 3), '4th of July, 2021',\n"
          "                       '2021-Jul-6', '07-07-2021', '20210708')\ndates"),
     'the dates not put in a list'),
    (18, "pd.date_range('2015-07-03', period=8)", 'the periods keyword misspelt'),
    (20, "pd.period_range('2015-07', 8, freq='M')", 'the number of periods passed by position (taken as the end)'),
    (23, "from pandas.tseries.offsets import BDay\npd.date_range('2015-07-01', periods=6, freq=BDay)",
     "the offset's class, not an instance"),
    (25, "sp500 = sp500['close']", "the column's name in lower case"),
    (28, ('fig, ax = plt.subplots(2, sharex=True)\ndata = sp500.iloc[:20]\n\n'
          "data.asfreq('D').plot(ax=ax[0], marker='o')\n\n"
          "data.asfreq('D', method='bfill').plot(ax=ax[2], style='-o')\n"
          "data.asfreq('D', method='ffill').plot(ax=ax[2], style='--o')\n"
          'ax[1].legend(["back-fill", "forward-fill"]);'),
     'the second axes numbered from one'),
    (29, ("sp500 = sp500.asfreq('D', method='pad')\n\nROI = 100 * (sp500.shift(365) - sp500) / sp500\nROI.plot()\n"
          "plt.ylabel('% Return on Investment after 1 year');"),
     "the shift's sign (runs: the year before, not after)"),
    (30, ("rolling = sp500.rolling(365, centre=True)\n\ndata = pd.DataFrame({'input': sp500,\n"
          "                     'one-year rolling_mean': rolling.mean(),\n"
          "                     'one-year rolling_median': rolling.median()})\n"
          "ax = data.plot(style=['-', '--', ':'])\nax.lines[0].set_alpha(0.3)"),
     "rolling's center keyword in British spelling"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.12 (high-performance pandas: compound numpy expressions and
# their temporaries, boolean masks combined with &, numexpr, pd.eval on large and small DataFrames with arithmetic,
# chained comparisons, bitwise and literal and/or and attribute and index access, DataFrame.eval on column names with
# assignment and @ local variables, and DataFrame.query against the masks it replaces): written down before any run
# of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0312 = [
    (0, ('import numpy as np\nrng = np.random.default_rng(42)\nx = rng.rand(1000000)\ny = rng.rand(1000000)\n'
         '%timeit x + y'),
     'the legacy rand asked of a Generator'),
    (2, 'mask = (x > 0.5) and (y < 0.5)', "Python's and between two boolean arrays"),
    (3, 'tmp1 = (x > 0.5)\ntmp2 = (y < 0.5)\nmask = tmp1 + tmp2', 'the masks added, not combined with & (runs: an or)'),
    (5, ('import pandas as pd\nnrows, ncols = 100000, 100\n'
         'df1, df2, df3, df4 = (pd.DataFrame(rng.random(nrows, ncols))\n                      for i in range(4))'),
     'the shape given as two arguments, not a tuple'),
    (6, '%timeit df1 + df2 + df3 + df5', 'a fifth frame not made yet'),
    (7, '%timeit pd.eval(df1 + df2 + df3 + df4)', 'the expression not quoted as a string'),
    (10, ("result1 = -df1 * df2 / (df3 + df4) - df5\nresult2 = pd.eval('-df1 * df2 / (df3 + df4) - df6')\n"
          'np.allclose(result1, result2)'),
     'a frame misnumbered in the expression string'),
    (11, ("result1 = (df1 < df2) & (df2 <= df3) & (df3 != df4)\nresult2 = pd.eval('df1 < df2 <= df3 == df4')\n"
          'np.allclose(result1, result2)'),
     '== for != in the chained comparison (runs: False)'),
    (12, ('result1 = df1 < 0.5 & df2 < 0.5 | df3 < df4\n'
          "result2 = pd.eval('(df1 < 0.5) & (df2 < 0.5) | (df3 < df4)')\nnp.allclose(result1, result2)"),
     'the comparisons not parenthesised around & and |'),
    (13, "result3 = pd.eval('(df1 < 0.5) AND (df2 < 0.5) OR (df3 < df4)')\nnp.allclose(result1, result3)",
     'and and or written in upper case, as in SQL'),
    (14, "result1 = df2.T[0] + df3.iloc(1)\nresult2 = pd.eval('df2.T[0] + df3.iloc[1]')\nnp.allclose(result1, result2)",
     'iloc called, not indexed'),
    (17, "result3 = pd.eval('(A + B) / (C - 1)')\nnp.allclose(result1, result3)",
     'the top-level eval given bare column names'),
    (18, 'df.head', 'head not called (runs: the bound method shown)'),
    (19, "df.eval('D == (A + B) / C', inplace=True)\ndf.head()", "== for the assignment's ="),
    (21, ("column_mean = df.mean(1)\nresult1 = df['A'] + column_mean\nresult2 = df.eval('A + column_mean')\n"
          'np.allclose(result1, result2)'),
     'the local variable without its @'),
    (23, 'result2 = df.query(A < 0.5 and B < 0.5)\nnp.allclose(result1, result2)', 'the query not quoted as a string'),
    (24, ("Cmean = df['C'].mean\nresult1 = df[(df.A < Cmean) & (df.B < Cmean)]\n"
          "result2 = df.query('A < @Cmean and B < @Cmean')\nnp.allclose(result1, result2)"),
     'mean not called'),
    (27, 'df.values.nbytes()', 'the nbytes attribute called'),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.08 (sorting: Python's sorted and list.sort, numpy's
# np.sort, the in-place sort method and argsort, sorting along rows and columns, np.partition and argpartition,
# and k nearest neighbours of random points from their squared distances broadcast, argsort and argpartition):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0208 = [
    (0, "L = [3, 1, 4, 1, 5, 9, 2, 6]\nL.sorted()  # returns a sorted copy", "sorted called as a list method"),
    (1, "print(L.sort())  # acts in-place and returns None",
     "the in-place sort's result printed (runs: None)"),
    (2, "'python'.sort()", "a list's sort method on a string"),
    (3, "import numpy as np\n\nx = np.array(2, 1, 4, 3, 5)\nnp.sort(x)", "the values given without a list"),
    (5, "x = np.array([2, 1, 4, 3, 5])\ni = np.argsort(x, reverse=True)\nprint(i)",
     "Python's reverse keyword given to argsort"),
    (6, "i[x]", "the array and its sorting indices the wrong way round"),
    (7, "rng = np.random.default_rng(seed=42)\nX = rng.integer(0, 10, (4, 6))\nprint(X)",
     "the Generator's integers method misspelt"),
    (8, "# sort each column of X\nnp.sort(X, axis='columns')", "pandas' axis name given to numpy"),
    (9, "# sort each row of X\nnp.sort(X, axis=1, order='descending')", "a descending order asked through order"),
    (10, "x = np.array([7, 2, 3, 1, 6, 5, 4])\nnp.partition(x, 7)", "a kth past the array's end"),
    (11, "np.partition(X, axis=1)", "the kth argument left out"),
    (12, "X = rng.random(10, 2)", "the shape as two arguments, rand's way"),
    (14, "dist_sq = np.sum((X[:, np.newaxis] - X[np.newaxis, :]) ^ 2, axis=-1)", "^ for the power operator"),
    (15, ("# for each pair of points, compute differences in their coordinates\n"
          "differences = X[:, np.newaxis] - X[:, np.newaxis]\ndifferences.shape"),
     "the same axis added on both sides (runs: all zeros)"),
    (16, "# square the coordinate differences\ndifferences ** 2\nsq_differences.shape",
     "the squares not assigned"),
    (17, ("# sum the coordinate differences to get the squared distance\ndist_sq = sum(sq_differences, -1)\n"
          "dist_sq.shape"), "Python's built-in sum for the array's sum (runs: the wrong axis and a start of -1)"),
    (18, "dist_sq.diag()", "numpy's diag function as a method"),
    (21, ("plt.scatter(X[:, 0], X[:, 1], s=100)\n\n# draw lines from each point to its two nearest neighbors\nK = 2\n\n"
          "for i in range(X.shape):\n    for j in nearest_partition[i, :K+1]:\n"
          "        # plot a line from X[i] to X[j]\n        # use some zip magic to make it happen:\n"
          "        plt.plot(*zip(X[j], X[i]), color='black')"),
     "range given the shape tuple, not its first item"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.03 (computation on arrays, universal functions: a Python
# loop of reciprocals against the vectorized division, arithmetic operators and their ufuncs, absolute values of
# integers and complex numbers, trigonometric, exponential and logarithmic ufuncs, scipy.special's gamma, beta and
# error functions, the out argument, and the ufuncs' reduce, accumulate and outer methods): written down before any
# run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0203 = [
    (0, "import numpy as np\nrng = np.random.default_rng(seed=1701)\n\ndef compute_reciprocals(values):\n"
        "    output = np.empty(len(values))\n    for i in range(len(values)):\n        output[i] = 1.0 / values[i]\n"
        "    return output\n        \nvalues = rng.randint(1, 10, size=5)\ncompute_reciprocals(values)",
     "the legacy RandomState's randint called on a default_rng Generator"),
    (1, "big_array = rng.integers(1, 100, size=1e6)\n%timeit compute_reciprocals(big_array)",
     "the array's size written as the float 1e6"),
    (2, "print(compute_reciprocals(values[0]))\nprint(1.0 / values)",
     "the function given one element of the array, not the array"),
    (4, "np.arange(5) / np.arange(6)", "the divisor's range one element too long"),
    (6, 'x = np.arange(4)\nprint("x      =", x)\nprint("x + 5  =" + x + 5)\nprint("x - 5  =", x - 5)\n'
        'print("x * 2  =", x * 2)\nprint("x / 2  =", x / 2)\nprint("x // 2 =", x // 2)  # floor division',
     "the label joined to the array with + instead of passed after a comma"),
    (7, 'print("-x     = ", -x)\nprint("x ** 2 = ", x ^ 2)\nprint("x % 2  = ", x % 2)',
     "the square written with ^ (bitwise xor) instead of ** (runs)"),
    (9, "np.sum(x, 2)", "np.sum (a reduction, its second argument the axis) used for the add ufunc"),
    (10, "x = np.array([-2, -1, 0, 1, 2])\nx.abs()", "an abs method called on the array, which has none"),
    (13, "x = np.array([3 - 4j, 4 - 3j, 2 + 0j, 0 + j])\nnp.abs(x)",
     "the imaginary unit written as a bare j, without its 1"),
    (14, "theta = np.linspace(0, pi, 3)", "pi used without its np. prefix"),
    (17, 'x = [1, 2, 3]\nprint("x   =", x)\nprint("e^x =", np.exp(x))\nprint("2^x =", np.exp2(x))\n'
         'print("3^x =", 3. ** x)',
     "the power taken with ** on the Python list instead of np.power"),
    (18, 'x = [1, 2, 4, 10]\nprint("x        =", x)\nprint("ln(x)    =", np.log(x))\n'
         'print("log2(x)  =", np.log2(x))\nprint("log10(x) =", np.log(x, 10))',
     "np.log given a base as its second argument, like math.log, instead of np.log10"),
    (21, '# Gamma functions (generalized factorials) and related functions\nx = [1, 5, 10]\n'
         'print("gamma(x)     =", special.gamma(x))\nprint("ln|gamma(x)| =", special.gammaln(x))\n'
         'print("beta(x, 2)   =", special.beta(x))',
     "the beta function given one argument of its two"),
    (23, "x = np.arange(5)\ny = np.empty(5)\nnp.multiply(x, 10, output=y)\nprint(y)",
     "the ufunc's out keyword written output"),
    (24, "y = np.zeros(10)\nnp.power(2, x, out=y[::3])\nprint(y)",
     "the output slice taken with a step of 3 instead of 2"),
    (26, "np.multiply.reduce", "the reduce method not called (runs)"),
    (27, "np.sum.accumulate(x)", "accumulate asked of np.sum instead of the ufunc np.add"),
    (29, "x = np.arange(1, 6)\nnp.multiply(x, x)", "the outer method left out: an element-wise product (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.09 (structured arrays: a compound dtype from a dict of names
# and formats, filling fields from lists, reading a field, a row and a masked selection, the dtype given as a dict,
# a list of tuples and a comma-separated string, a sub-array field, and record arrays by view with attribute access
# to their fields): written down before any run of the guard, from the notebook's sources alone (held out; checked
# in a plain kernel only); code cells from 0
PDSH_0209 = [
    (1, "name = ['Alice', 'Bob', 'Cathy', 'Doug']\nage = [25, 45, 37 19]\nweight = [55.0, 85.5, 68.0, 61.5]",
     "a comma missing between two ages"),
    (2, "x = np.zeros(4, dtype=int32)", "the integer type named without its np. prefix"),
    (3, "# Use a compound data type for structured arrays\n"
        "data = np.zeros(4, dtype={'names':('name', 'age', 'weight'),\n"
        "                          'format':('U10', 'i4', 'f8')})\nprint(data.dtype)",
     "the dtype dict's formats key written format"),
    (4, "data['name'] = name\ndata['age'] = weight\ndata['weight'] = weight\nprint(data)",
     "the weights assigned to the age field (runs)"),
    (5, "# Get all names\ndata['names']", "the field's name written in the plural"),
    (6, "# Get first row of data\ndata[1]", "the first row taken at index 1 (runs)"),
    (7, "# Get the name from the last row\ndata.iloc[-1]['name']", "pandas' iloc used on a numpy array"),
    (8, "# Get names where age is under 30\ndata[data['age' < 30]]['name']",
     "the comparison put inside the field's brackets"),
    (9, "np.dtype({'names':('name', 'age', 'weight'),\n          'formats':('U10', 'i4')})",
     "two formats given for three names"),
    (10, "np.dtype({'names':('name', 'age', 'weight'),\n          'formats':((np.unicode_, 10), int, np.float32)})",
     "np.unicode_, removed in NumPy 2, for the string type"),
    (11, "np.dtype(('name', 'S10'), ('age', 'i4'), ('weight', 'f8'))",
     "the field tuples passed without their enclosing list"),
    (12, "np.dtype(['S10', 'i4', 'f8'])",
     "the formats given as a list of strings instead of one comma-separated string"),
    (13, "tp = np.dtype([('id', 'i8'), ('mat', (3, 3), 'f8')])\nX = np.zeros(1, dtype=tp)\nprint(X[0])\n"
         "print(X['mat'][0])",
     "the sub-array field's shape and type given in the wrong order"),
    (14, "data.age", "the field read as an attribute of the plain structured array"),
    (15, "data_rec = data.astype(np.recarray)\ndata_rec.age", "astype used instead of view to get a record array"),
    (16, "%timeit data['age']\n%timeit data_rec[age]\n%timeit data_rec.age", "the field's name left unquoted"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.01 (introducing pandas' objects: the Series, its values and
# index, explicit labels, a Series from a dict, a scalar and a dict with a given index, the DataFrame from Series,
# dicts, a list of dicts, a two-dimensional array and a structured array, and the immutable Index with its set
# operations): written down before any run of the guard, from the notebook's sources alone (held out; checked in a
# plain kernel only); code cells from 0
PDSH_0301 = [
    (0, "import numpy as np\nimport panda as pd", "the module's name misspelt"),
    (1, "data = pd.series([0.25, 0.5, 0.75, 1.0])\ndata", "the class's name in lower case"),
    (2, "data.values()", "the values attribute called as a method"),
    (4, "data[4]", "the last item counted from one"),
    (6, "data = pd.Series([0.25, 0.5, 0.75, 1.0],\n                 index=['a', 'b', 'c'])\ndata",
     "one index label too few"),
    (9, "data[1]", "a position asked of an integer index, which takes labels"),
    (10, ("population_dict = {'California': 39538223, 'Texas': 29145505,\n"
          "                   'Florida': 21538187, 'New York': 20201249,\n"
          "                   'Pennsylvania': 13002700}\npopulation = pd.Series(populaton_dict)\npopulation"),
     "the dict's name misspelt"),
    (11, "population('California')", "parentheses for the brackets"),
    (12, "population.loc['California', 'Florida']", "a comma for the slice's colon"),
    (14, "pd.Series(5, index=100)", "one scalar as the index"),
    (18, "states = pd.DataFrame([population, area])\nstates",
     "a list of the Series, not a dict (runs: states as rows, columns unnamed)"),
    (21, "states[area]", "the area Series for the column's name"),
    (24, "pd.DataFrame({'a': 1, 'b': 2}, {'b': 3, 'c': 4})",
     "the list's brackets left out (runs: the second dict taken as the index)"),
    (26, ("pd.DataFrame(np.random.rand((3, 2)),\n             columns=['foo', 'bar'],\n"
          "             index=['a', 'b', 'c'])"),
     "the shape as a tuple to rand"),
    (27, "A = np.zeros(3, dtype={'A': 'i8', 'B': 'f8'})\nA", "the fields given as a dict, not a list of pairs"),
    (32, "print(ind.size, ind.shape(), ind.ndim, ind.dtype)", "the shape attribute called"),
    (35, "indA & indB", "the first edition's & for the intersection (runs: a bitwise and)"),
    (37, "indA.symmetric_diference(indB)", "the method's name misspelt"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.10 (vectorized string operations: list comprehensions and
# None, the str accessor's methods on a Series (capitalize, lower, len, startswith, split), regular expressions with
# extract and findall, element access and slicing with str and str.get, and get_dummies on delimited indicators):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0 (the recipes cells from 15 on read a download: not run)
PDSH_0310 = [
    (0, "import numpy as np\nx = np.array(2, 3, 5, 7, 11, 13)\nx * 2", "the list's brackets left out"),
    (1, "data = ['peter', 'Paul', 'MARY', 'gUIDO']\n[s.capitalise() for s in data]", "the method's British spelling"),
    (2, "data = ['peter', 'Paul', None, 'MARY', 'gUIDO']\n[s if s is not None else s.capitalize() for s in data]",
     "the None test inverted"),
    (3, "import pandas as pd\nnames = pd.Series(data)\nnames.capitalize()", "the str accessor left out"),
    (4, ("monte = pd.Series(['Graham Chapman', 'John Cleese', 'Terry Gilliam'\n"
         "                   'Eric Idle', 'Terry Jones', 'Michael Palin'])"),
     "a comma left out between two names (runs: five names, two joined)"),
    (5, "monte.str.lowercase()", "a method's name that is not the accessor's"),
    (6, "len(monte.str)", "Python's len on the accessor itself"),
    (7, "monte.str.startswith(['T', 'G'])", "a list of prefixes, not a tuple"),
    (7, "monte.str.startswith('T', 'G')", "a second prefix as a second argument"),
    (8, "monte.str.split(maxsplit=1)", "Python's str.split keyword"),
    (9, "monte.str.extract('[A-Za-z]+', expand=False)", "the group's parentheses left out"),
    (10, "monte.str.findall(r'^[^AEIOU].*[^aeiou]$', re.I)", "a flag from re before re is imported"),
    (11, "monte[0:3]", "the str accessor left out (runs: the first three names, not their letters)"),
    (12, "monte.str.split()[-1]", "the last word taken without the str accessor"),
    (13, ("full_monte = pd.DataFrame({'name': monte,\n                           'info': ['B|C|D', 'B|D', 'A|C',\n"
          "                                    'B|D', 'B|C|D']})\nfull_monte"),
     "one indicator string left out"),
    (14, "pd.get_dummies(full_monte['info'], '|')",
     "pandas' get_dummies, whose second argument is a prefix (runs: one column per whole string)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.05 (pandas' hierarchical indexing: a tuple index made a
# MultiIndex, unstack and stack, its constructors and level names, multi-indexed columns, indexing and slicing
# with loc, iloc and IndexSlice, sorting, and rearranging with unstack, reset_index and set_index): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code
# cells from 0
PDSH_0305 = [
    (2, "pop['California':'Texas']", "partial labels sliced on an index of plain tuples"),
    (3, "pop[[i for i in pop.index if i[1] == '2010']]", "a year compared as text (runs: empty)"),
    (4, "index = pd.MultiIndex(index)", "the constructor for from_tuples"),
    (5, "pop = pop.set_index(index)\npop", "a DataFrame's method on a Series"),
    (6, "pop[2020]", "an inner level's label without the outer level's slot"),
    (7, "pop_df = pop.unstack(level='year')\npop_df", "a level's name before the levels are named"),
    (9, ("pop_df = pd.DataFrame({'total': pop,\n                       'under18': [9284094, 8898092,\n"
         "                                   4318033, 4181528,\n                                   6879014]})\npop_df"),
     "a list one value short"),
    (11, ("df = pd.DataFrame(np.random.rand(4, 2),\n                  index=[['a', 'a', 'b', 'b'], [1, 2, 1, 2]],\n"
          "                  columns=['data1', 'data2', 'data3'])\ndf"),
     "more column names than columns"),
    (13, "pd.MultiIndex.from_arrays(['a', 'a', 'b', 'b'], [1, 2, 1, 2])", "the outer brackets left out"),
    (16, "pd.MultiIndex(levels=[['a', 'b'], [1, 2]],\n              labels=[[0, 0, 1, 1], [0, 1, 0, 1]])",
     "a keyword pandas renamed (the first edition's)"),
    (17, "pop.index.names = ['year', 'state']\npop", "level names in the wrong order (runs)"),
    (18, ("# hierarchical indices and columns\nindex = pd.MultiIndex.from_product([[2013, 2014], [1, 2]],\n"
          "                                   names=['year', 'visit'])\n"
          "columns = pd.MultiIndex.from_product([['Bob', 'Guido', 'Sue'], ['HR', 'Temp']],\n"
          "                                     names=['subject', 'type'])\n\n# mock some data\n"
          "data = np.round(np.random.randn(4, 6), 1)\ndata[:, ::2] *= 10\ndata += 37\n\n# create the DataFrame\n"
          "health_data = pd.DataFrame(data, index=columns, columns=index)\nhealth_data"),
     "index and columns swapped"),
    (19, "health_data['HR']", "an inner column level's label with []"),
    (23, "pop.iloc['California':'New York']", "labels to the positional indexer"),
    (26, "pop['California', 'Texas']", "the list's brackets left out (read as one key)"),
    (29, "health_data.loc[:2, :2]", "positions to the label indexer"),
    (30, "health_data.loc[:, ['Bob', 'HR']]", "a list where a tuple names one column"),
    (32, "idx = pd.IndexSlice\nhealth_data[idx[:, 1], idx[:, 'HR']]", ".loc left out"),
    (35, "data.sort_index()\ndata['a':'b']", "the sorted result not kept"),
    (37, "pop.unstack(level=2)", "a level counted from one"),
    (40, "pop_flat = pop.reset_index()\npop_flat", "the values' name left out (runs: a column named 0)"),
    (41, "pop_flat.set_index('state', 'year')", "the keys as separate arguments, not a list"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.05 (computation on arrays, broadcasting: a scalar and a
# row stretched over a larger array, a row and a column broadcast into a grid, the rules and an example of
# incompatible shapes, np.newaxis to make a column, centering an array by its column means, and a 2-D function
# plotted with imshow): written down before any run of the guard, from the notebook's sources alone (held out;
# checked in a plain kernel only); code cells from 0
PDSH_0205 = [
    (1, "a = np.array([0, 1, 2])\nb = np.array([5, 5])\na + b", "the second array one value short"),
    (2, "A + 5", "the array's name capitalised"),
    (3, "M = np.ones(3, 3)\nM", "the shape as two arguments, not a tuple"),
    (4, "M + b", "the wrong array added (runs)"),
    (5, "a = np.arange(3)\nb = np.arange(3)[:, np.newaxes]\n\nprint(a)\nprint(b)", "newaxis misspelt"),
    (6, "np.sum(a, b)", "sum for the element-wise add (the column taken as its axis)"),
    (8, "M + a[:, np.newaxis]", "a column made where the row broadcasts"),
    (9, "a = np.arange(3).reshape((3, 1))\nb = np.arrange(3)", "arange misspelt"),
    (13, "a[:, np.newaxis].shape()", "the shape attribute called"),
    (14, "M + a[np.newaxis, :]", "the new axis put first"),
    (15, "np.logaddexp(M + a[:, np.newaxis])", "the two operands summed into one argument"),
    (16, "rng = np.random.default_rng(seed=1701)\nX = rng.random((10, 3), dtype=int)", "integers asked of random()"),
    (17, "Xmean = X.mean(1)\nXmean", "the mean along the wrong axis (runs)"),
    (18, "X_centered = X - X.mean(axis=1)", "the rows' means subtracted from the columns"),
    (19, "X_centered.mean(0, keepdim=True)", "keepdims misspelt"),
    (20, ("# x and y have 50 steps from 0 to 5\nx = np.linspace(0, 5, 50)\ny = np.linspace(0, 5, 50)\n\n"
          "z = np.sin(x) ** 10 + np.cos(10 + y * x) * np.cos(x)"),
     "y left a row, not made a column (runs: a 1-D z)"),
    (21, "%matplotlib inline\nimport matplotlib.pylot as plt", "the module's name misspelt"),
    (22, "plt.imshow(z, origin='bottom', extent=[0, 5, 0, 5])\nplt.colorbar();",
     "an origin value matplotlib no longer takes"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 02.06 (comparisons, masks and Boolean logic: Seattle's
# daily rainfall, comparison operators as ufuncs, counting with count_nonzero, sum, any and all along an axis,
# the bitwise operators &, |, ~ on masks, masks as indices for selecting values, and `and`/`or` against & and |):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain
# kernel only); code cells from 0
PDSH_0206 = [
    (2, "plt.histogram(rainfall_mm, 40);", "numpy's function name on pyplot"),
    (3, "x = np.array(1, 2, 3, 4, 5)", "the values not put in a list"),
    (10, "(2 * x) == (x ^ 2)", "^ for the power (runs: bitwise xor)"),
    (11, "rng = np.random.default_rng(seed=1701)\nx = rng.integers(10, shape=(3, 4))\nx", "shape for the size keyword"),
    (14, "(x < 6).count_nonzero()", "the function called as an array method"),
    (15, "sum(x < 6)", "Python's built-in sum (runs: the columns' counts)"),
    (16, "np.sum(x < 6, axis=2)", "an axis the 2-D array lacks"),
    (17, "(x > 8).any", "the method not called (runs)"),
    (18, "any(x < 0)", "Python's built-in any on a 2-D array"),
    (19, "np.alltrue(x < 10)", "a function removed from NumPy 2"),
    (20, "np.all(x = 6)", "= for =="),
    (21, "np.all(x < 8, axis='rows')", "pandas' axis name in numpy"),
    (22, "np.sum(rainfall_mm > 10 & rainfall_mm < 20)", "the comparisons' parentheses left out"),
    (23, "np.sum(not ((rainfall_mm <= 10) | (rainfall_mm >= 20)))", "Python's not for ~"),
    (24, ('print("Number days without rain:  ", np.count(rainfall_mm == 0))\n'
          'print("Number days with rain:     ", np.sum(rainfall_mm != 0))\n'
          'print("Days with more than 10 mm: ", np.sum(rainfall_mm > 10))\n'
          'print("Rainy days with < 5 mm:    ", np.sum((rainfall_mm > 0) &\n'
          '                                            (rainfall_mm < 5)))'),
     "a counting function numpy lacks"),
    (27, "x(x < 5)", "parentheses for the mask's brackets"),
    (28, ("# construct a mask of all rainy days\nrainy = (rainfall_mm > 0)\n\n"
          "# construct a mask of all summer days (June 21st is the 172nd day)\ndays = np.arange(366)\n"
          "summer = (days > 172) & (days < 262)\n\n"
          "print(\"Median precip on rainy days in 2015 (mm):   \",\n      np.median(rainfall_mm[rainy]))\n"
          "print(\"Median precip on summer days in 2015 (mm):  \",\n      np.median(rainfall_mm[summer]))\n"
          "print(\"Maximum precip on summer days in 2015 (mm): \",\n      np.max(rainfall_mm[summer]))\n"
          "print(\"Median precip on non-summer rainy days (mm):\",\n      np.median(rainfall_mm[rainy & ~summer]))"),
     "a leap year's days counted"),
    (36, "A = np.array([1, 0, 1, 0, 1, 0], dtype=bool)\nB = np.array([1, 1, 1, 0, 1], dtype=bool)\nA | B",
     "the second array one value short"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.03 (operations in pandas: numpy's ufuncs on a Series and a
# DataFrame keep the index, index alignment in arithmetic between Series and between DataFrames, add with
# fill_value, and operations between a DataFrame and a Series, row-wise by default and column-wise with axis=0):
# written down before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel
# only); code cells from 0
PDSH_0303 = [
    (1, "rng = np.random.default_rng(42)\nser = pd.Series(rng.randint(0, 10, 4))\nser",
     "the old RandomState method on a Generator"),
    (2, "df = pd.DataFrame(rng.integers(0, 10, 3, 4),\n                  columns=['A', 'B', 'C', 'D'])\ndf",
     "the shape as two arguments, not a tuple"),
    (3, "ser.exp()", "the ufunc called as a Series method"),
    (4, "np.sin(df * pi / 4)", "pi without numpy's prefix"),
    (5, "area = pd.Series({'Alaska': 1723337, 'Texas': 695662,\n"
        "                  'California': 423967}, name='area')\n"
        "population = pd.Series({'California': 39538223, 'Texas': 29145505,\n"
        "                        'Florida': 21538187}, index='population')",
     "the Series' name given as its index"),
    (6, "population / area.values", "the raw values divided, so the states do not align (runs)"),
    (7, "area.union(population.index)", "union called on the Series, not its index"),
    (8, "A = pd.Series([2, 4, 6], index=[0, 1, 2])\nB = pd.Series([1, 3, 5], index=[1, 2, 3, 4])\nA + B",
     "an index one label longer than the values"),
    (9, "A.fillna(0) + B.fillna(0)", "the NaNs filled before the aligning adds them (runs)"),
    (10, "A = pd.DataFrame(rng.integers(0, 20, (2, 2),\n                 columns=['a', 'b']))\nA",
     "the columns passed inside the integers call"),
    (12, "A + B.values", "a frame added to an array of another shape"),
    (13, "A.add(B, fill_value=A.mean())", "the column means, not one scalar, as the fill value"),
    (14, "A = rng.integers(10, shape=(3, 4))\nA", "shape for integers' size keyword"),
    (15, "A - A[:, 0]", "the first column subtracted instead of the first row"),
    (16, "df = pd.DataFrame(A, columns=['Q', 'R', 'S', 'T'])\ndf - df[0]", "the first row taken with numpy's A[0]"),
    (17, "df - df['R']", "a column subtracted without axis=0 (runs)"),
    (18, "halfrow = df.iloc[0, 'Q':'S']\nhalfrow", "column labels sliced with iloc"),
    (19, "df - halfrow.values", "the half row's bare values, which cannot align"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.07 (matplotlib's colorbars: imshow of a 2-D function with
# plt.colorbar, colormaps by name, a grayscale view of a colormap built with LinearSegmentedColormap, sequential,
# divergent and qualitative maps, noisy pixels with an extended colorbar and clim, a discrete colormap, and the
# digits' Isomap projection colored by label): written down before any run of the guard, from the notebook's sources
# alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0407 = [
    (0, "import matplotlib.pylot as plt\nplt.style.use('seaborn-white')", "pyplot's module name misspelt"),
    (2, 'x = np.linspace(0, 10, 1000)\nI = np.sin(x) * np.cos(x)\n\nplt.imshow(I)\nplt.colorbar();',
     "np.newaxis left out of the second factor"),
    (2, 'x = np.linspace(0, 10, 1000)\nI = np.sin(x) * np.cos(x[np.newaxis, :])\n\nplt.imshow(I)\nplt.colorbar();',
     "np.newaxis on the wrong side (runs)"),
    (2, 'x = np.linspace(0, 10, 1000)\nI = np.sin(x) * np.cos(x[:, np.newaxis])\n\nplt.imshow(I)\nplt.colorbar(I);',
     "the image's array given to colorbar"),
    (3, "plt.imshow(I, cmap='blues');", "the colormap's name in lower case"),
    (4, ('from matplotlib.colors import LinearSegmentedColourmap\n\ndef grayscale_cmap(cmap):\n'
         '    """Return a grayscale version of the given colormap"""\n    cmap = plt.cm.get_cmap(cmap)\n'
         '    colors = cmap(np.arange(cmap.N))\n    \n    # Convert RGBA to perceived grayscale luminance\n'
         '    # cf. http://alienryderflex.com/hsp.html\n    RGB_weight = [0.299, 0.587, 0.114]\n'
         '    luminance = np.sqrt(np.dot(colors[:, :3] ** 2, RGB_weight))\n'
         '    colors[:, :3] = luminance[:, np.newaxis]\n        \n    return LinearSegmentedColormap.from_list(\n'
         '        cmap.name + "_gray", colors, cmap.N)\n    \n\ndef view_colormap(cmap):\n'
         '    """Plot a colormap with its grayscale equivalent"""\n    cmap = plt.cm.get_cmap(cmap)\n'
         '    colors = cmap(np.arange(cmap.N))\n    \n    cmap = grayscale_cmap(cmap)\n'
         '    grayscale = cmap(np.arange(cmap.N))\n    \n    fig, ax = plt.subplots(2, figsize=(6, 2),\n'
         '                           subplot_kw=dict(xticks=[], yticks=[]))\n'
         '    ax[0].imshow([colors], extent=[0, 10, 0, 1])\n    ax[1].imshow([grayscale], extent=[0, 10, 0, 1])'),
     "the colormap class imported with a British spelling"),
    (5, 'view_colormap(jet)', "the colormap's name unquoted"),
    (8, ('# make noise in 1% of the image pixels\nspeckles = (np.random.random(I.shape) < 0.01)\n'
         'I[speckles] = np.random.normal(0, 3, len(speckles))\n\nplt.figure(figsize=(10, 3.5))\n\n'
         "plt.subplot(1, 2, 1)\nplt.imshow(I, cmap='RdBu')\nplt.colorbar()\n\nplt.subplot(1, 2, 2)\n"
         "plt.imshow(I, cmap='RdBu')\nplt.colorbar(extend='both')\nplt.clim(-1, 1)"),
     "the mask's length for its count of True values"),
    (10, ('# load images of the digits 0 through 5 and visualize several of them\n'
          'from sklearn.datasets import load_digits\ndigits = load_digits(n_classes=6)\n\n'
          'fig, ax = plt.subplots(8, 8, figsize=(6, 6))\nfor i, axi in enumerate(ax.flat):\n'
          "    axi.imshow(digits.images[i], cmap='binary')\n    axi.set(xticks=[], yticks=[])"),
     "load_digits' n_class keyword in the plural"),
    (10, ('# load images of the digits 0 through 5 and visualize several of them\n'
          'from sklearn.datasets import load_digits\ndigits = load_digits(n_class=6)\n\n'
          'fig, ax = plt.subplots(8, 8, figsize=(6, 6))\nfor i, axi in enumerate(ax):\n'
          "    axi.imshow(digits.images[i], cmap='binary')\n    axi.set(xticks=[], yticks=[])"),
     "the 2-D array of axes iterated without .flat"),
    (11, ('# project the digits into 2 dimensions using Isomap\nfrom sklearn.manifold import Isomap\n'
          'iso = Isomap(n_components=2, n_neighbors=15)\nprojection = iso.fit_transform(digits.images)'),
     "the 8x8 images for the flat data"),
    (11, ('# project the digits into 2 dimensions using Isomap\nfrom sklearn.manifold import Isomap\n'
          'iso = Isomap(n_components=2, n_neighbors=15)\nprojection = iso.fit(digits.data)'),
     "fit for fit_transform (runs)"),
    (12, ('# plot the results\nplt.scatter(projection[:, 0], projection[:, 1], lw=0.1,\n'
          "            c=digits.targets, cmap=plt.cm.get_cmap('plasma', 6))\n"
          "plt.colorbar(ticks=range(6), label='digit value')\nplt.clim(-0.5, 5.5)"),
     "the digits' target attribute in the plural"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.09 (matplotlib's text and annotation: the CDC births by day
# of year, read from the checkout and pivoted by month and day, plotted with ax.text labels, axis labels and month
# locators and formatters; text placed in data, axes and figure coordinates; annotate with arrows and arrowprops,
# and the births annotated with bboxes, connection and arrow styles): written down before any run of the guard, from
# the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0409 = [
    (0, ('%matplotlib inline\nimport matplotlib.pyplot as plt\nimport matplotlib as mpl\n'
         "plt.styles.use('seaborn-v0_8-whitegrid')\nimport numpy as np\nimport pandas as pd"),
     "pyplot's style module misspelt"),
    (3, 'fig, ax = plt.subplot(figsize=(12, 4))\nbirths_by_date.plot(ax=ax);', "plt.subplot for plt.subplots"),
    (3, 'fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax);',
     "the axes passed by position to the DataFrame's plot"),
    (4, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'style = dict(size=10, colour=\'gray\')\n\nax.text(\'2012-1-1\', 3950, "New Year\'s Day", **style)\n'
         'ax.text(\'2012-7-4\', 4250, "Independence Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-9-4\', 4850, "Labor Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-10-31\', 4600, "Halloween", ha=\'right\', **style)\n'
         'ax.text(\'2012-11-25\', 4450, "Thanksgiving", ha=\'center\', **style)\n'
         'ax.text(\'2012-12-25\', 3850, "Christmas ", ha=\'right\', **style)\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.dates.DateFormatter('%h'));"),
     "the style's color keyword with a British spelling"),
    (4, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'style = dict(size=10, color=\'gray\')\n\nax.text(\'2012-1-1\', 3950, "New Year\'s Day", **style)\n'
         'ax.text(\'2012-4-7\', 4250, "Independence Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-9-4\', 4850, "Labor Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-10-31\', 4600, "Halloween", ha=\'right\', **style)\n'
         'ax.text(\'2012-11-25\', 4450, "Thanksgiving", ha=\'center\', **style)\n'
         'ax.text(\'2012-12-25\', 3850, "Christmas ", ha=\'right\', **style)\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.dates.DateFormatter('%h'));"),
     "a date typed day before month (runs)"),
    (4, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'style = dict(size=10, color=\'gray\')\n\nax.text(\'2012-1-1\', 3950, "New Year\'s Day", **style)\n'
         'ax.text(\'2012-7-4\', 4250, "Independence Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-9-4\', 4850, "Labor Day", ha=\'center\', **style)\n'
         'ax.text(\'2012-10-31\', 4600, "Halloween", ha=\'right\', **style)\n'
         'ax.text(\'2012-11-25\', 4450, "Thanksgiving", ha=\'center\', **style)\n'
         'ax.text(\'2012-12-25\', 3850, "Christmas ", ha=\'right\', **style)\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.date.DateFormatter('%h'));"),
     "matplotlib's dates module misspelt"),
    (5, ("fig, ax = plt.subplots(facecolor='lightgray')\nax.axis([0, 10, 0, 10])\n\n"
         "# transform=ax.transData is the default, but we'll specify it anyway\n"
         'ax.text(1, 5, ". Data: (1, 5)", transform=ax.transData)\n'
         'ax.text(0.5, 0.1, ". Axes: (0.5, 0.1)", transform=ax.transAxes)\n'
         'ax.text(0.2, 0.2, ". Figure: (0.2, 0.2)", transform=ax.transFigure);'),
     "the figure's transform asked of the axes"),
    (6, 'ax.xlim(0, 2)\nax.ylim(-6, 6)\nfig', "pyplot's xlim and ylim called on the axes"),
    (6, 'ax.set_xlim(0, 2)\nax.set_ylim(6, -6)\nfig', "the y limits given top first (runs)"),
    (7, ("fig, ax = plt.subplots()\n\nx = np.linspace(0, 20, 1000)\nax.plot(x, np.cos(x))\nax.axis('equal')\n\n"
         "ax.annotate('local maximum', xy=(6.28, 1), xytext=(10, 4),\n"
         "            arrowprop=dict(facecolor='black', shrink=0.05))\n\n"
         "ax.annotate('local minimum', xy=(5 * np.pi, -1), xytext=(2, -6),\n"
         '            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="angle3,angleA=0,angleB=-90"));'),
     "annotate's arrowprops keyword misspelt"),
    (7, ("fig, ax = plt.subplots()\n\nx = np.linspace(0, 20, 1000)\nax.plot(x, np.cos(x))\nax.axis('equals')\n\n"
         "ax.annotate('local maximum', xy=(6.28, 1), xytext=(10, 4),\n"
         "            arrowprops=dict(facecolor='black', shrink=0.05))\n\n"
         "ax.annotate('local minimum', xy=(5 * np.pi, -1), xytext=(2, -6),\n"
         '            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="angle3,angleA=0,angleB=-90"));'),
     "the axis option misspelt"),
    (8, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'ax.annotate("New Year\'s Day", xy=(\'2012-1-1\', 4100),  xycoords=\'data\',\n'
         "            xytext=(50, -30), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="arc3,rad=-0.2"))\n\n'
         'ax.annotate("Independence Day", xy=(\'2012-7-4\', 4250),  xycoords=\'data\',\n'
         '            bbox=dict(boxstyle="round", fc="none", ec="gray"),\n'
         "            xytext=(10, -40), textcoords='offset points', ha='center',\n"
         '            arrowprops=dict(arrowstyle="->"))\n\n'
         "ax.annotate('Labor Day Weekend', xy=('2012-9-4', 4850), xycoord='data',\n"
         "            ha='center', xytext=(0, -20), textcoords='offset points')\n"
         "ax.annotate('', xy=('2012-9-1', 4850), xytext=('2012-9-7', 4850),\n"
         "            xycoords='data', textcoords='data',\n"
         "            arrowprops={'arrowstyle': '|-|,widthA=0.2,widthB=0.2', })\n\n"
         "ax.annotate('Halloween', xy=('2012-10-31', 4600),  xycoords='data',\n"
         "            xytext=(-80, -40), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="fancy",\n                            fc="0.6", ec="none",\n'
         '                            connectionstyle="angle3,angleA=0,angleB=-90"))\n\n'
         "ax.annotate('Thanksgiving', xy=('2012-11-25', 4500),  xycoords='data',\n"
         "            xytext=(-120, -60), textcoords='offset points',\n"
         '            bbox=dict(boxstyle="round4,pad=.5", fc="0.9"),\n            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="angle,angleA=0,angleB=80,rad=20"))\n\n\n'
         "ax.annotate('Christmas', xy=('2012-12-25', 3850),  xycoords='data',\n"
         "             xytext=(-30, 0), textcoords='offset points',\n"
         '             size=13, ha=\'right\', va="center",\n             bbox=dict(boxstyle="round", alpha=0.1),\n'
         '             arrowprops=dict(arrowstyle="wedge,tail_width=0.5", alpha=0.1));\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.dates.DateFormatter('%h'));\n\nax.set_ylim(3600, 5400);"),
     "annotate's xycoords keyword misspelt"),
    (8, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'ax.annotate("New Year\'s Day", xy=(\'2012-1-1\', 4100),  xycoords=\'data\',\n'
         "            xytext=(50, -30), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="arc3,rad=-0.2"))\n\n'
         'ax.annotate("Independence Day", xy=(\'2012-7-4\', 4250),  xycoords=\'data\',\n'
         '            bbox=dict(boxstyle="round", fc="none", ec="gray"),\n'
         "            xytext=(10, -40), textcoords='offset points', ha='center',\n"
         '            arrowprops=dict(arrowstyle="->"))\n\n'
         "ax.annotate('Labor Day Weekend', xy=('2012-9-4', 4850), xycoords='data',\n"
         "            ha='center', xytext=(0, -20), textcoords='offset points')\n"
         "ax.annotate('', xy=('2012-9-1', 4850), xytext=('2012-9-7', 4850),\n"
         "            xycoords='data', textcoords='data',\n"
         "            arrowprops={'arrowstyle': '|-|,widthA=0.2,widthB=0.2', })\n\n"
         "ax.annotate('Halloween', xy=('2012-10-31', 4600),  xycoords='data',\n"
         "            xytext=(-80, -40), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="fancy",\n                            fc="0.6", ec="none",\n'
         '                            connectionstyle="angle3,angleA=0,angleB=-90"))\n\n'
         "ax.annotate('Thanksgiving', xy=('2012-11-25', 4500),  xycoords='data',\n"
         "            xytext=(-120, -60), textcoords='offset points',\n"
         '            bbox=dict(boxstyle="round4,pad=.5", fc="0.9"),\n            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="angle,angleA=0,angleB=80,rad=20"))\n\n\n'
         "ax.annotate('Christmas', xy=('2012-25-12', 3850),  xycoords='data',\n"
         "             xytext=(-30, 0), textcoords='offset points',\n"
         '             size=13, ha=\'right\', va="center",\n             bbox=dict(boxstyle="round", alpha=0.1),\n'
         '             arrowprops=dict(arrowstyle="wedge,tail_width=0.5", alpha=0.1));\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.dates.DateFormatter('%h'));\n\nax.set_ylim(3600, 5400);"),
     "a date typed day before month"),
    (8, ('fig, ax = plt.subplots(figsize=(12, 4))\nbirths_by_date.plot(ax=ax)\n\n# Add labels to the plot\n'
         'ax.annotate("New Year\'s Day", xy=(\'2012-1-1\', 4100),  xycoords=\'data\',\n'
         "            xytext=(50, -30), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="arc3,rad=-0.2"))\n\n'
         'ax.annotate("Independence Day", xy=(\'2012-7-4\', 4250),  xycoords=\'data\',\n'
         '            bbox=dict(boxstyle="round", fc="none", ec="gray"),\n'
         "            xytext=(10, -40), textcoords='offset points', ha='center',\n"
         '            arrowprops=dict(arrowstyle="->"))\n\n'
         "ax.annotate('Labor Day Weekend', xy=('2012-9-4', 4850), xycoords='data',\n"
         "            ha='center', xytext=(0, -20), textcoords='offset points')\n"
         "ax.annotate('', xy=('2012-9-1', 4850), xytext=('2012-9-7', 4850),\n"
         "            xycoords='data', textcoords='data',\n"
         "            arrowprops={'arrowstyle': '|-|,widthA=0.2,widthB=0.2', })\n\n"
         "ax.annotate('Halloween', xy=('2012-10-31', 4600),  xycoords='data',\n"
         "            xytext=(-80, -40), textcoords='offset points',\n"
         '            arrowprops=dict(arrowstyle="fancy",\n                            fc="0.6", ec="none",\n'
         '                            connectionstyle="angle3,angleA=0,angleB=-90"))\n\n'
         "ax.annotate('Thanksgiving', xy=('2012-11-25', 4500),  xycoords='data',\n"
         "            xytext=(-120, -60), textcoords='offset points',\n"
         '            bbox=dict(boxstyle="round4,pad=.5", fc="0.9"),\n            arrowprops=dict(arrowstyle="->",\n'
         '                            connectionstyle="angle,angleA=0,angleB=80,rad=20"))\n\n\n'
         "ax.annotate('Christmas', xy=('2012-12-25', 3850),  xycoords='data',\n"
         "             xytext=(-30, 0), textcoords='offset points',\n"
         '             size=13, ha=\'right\', va="center",\n             bbox=dict(boxstyle="round", alpha=0.1),\n'
         '             arrowprops=dict(arrowstyle="wedge,tail_width=0.5", alpha=0.1));\n\n# Label the axes\n'
         "ax.set(title='USA births by day of year (1969-1988)',\n       ylabel='average daily births')\n\n"
         '# Format the x-axis with centered month labels\nax.xaxis.set_major_locator(mpl.dates.MonthLocator())\n'
         'ax.xaxis.set_minor_locator(mpl.dates.MonthLocator(bymonthday=15))\n'
         'ax.xaxis.set_major_formatter(plt.NullFormatter())\n'
         "ax.xaxis.set_minor_formatter(mpl.dates.DateFormatter('%h'));\n\nax.set_ylim(3600, 4400);"),
     "the upper y limit mistyped (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.12 (three-dimensional plotting with mplot3d: 3d axes, a 3-D
# line and scatter, contour3D of a function on a meshgrid, view_init, wireframes and surfaces, a surface on a polar
# grid, plot_trisurf of random points, and a Moebius strip triangulated in its parametrization): written down before
# any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0412 = [
    (0, 'from mpl_toolkits import mplot3D', "mplot3d's module name with a capital D"),
    (2, "fig = plt.figure()\nax = plt.axes(projection='3D')", "the projection's name in capitals"),
    (3, ('ax = plt.axes()\n\n# Data for a three-dimensional line\nzline = np.linspace(0, 15, 1000)\n'
         "xline = np.sin(zline)\nyline = np.cos(zline)\nax.plot3D(xline, yline, zline, 'gray')\n\n"
         '# Data for three-dimensional scattered points\nzdata = 15 * np.random.random(100)\n'
         'xdata = np.sin(zdata) + 0.1 * np.random.randn(100)\nydata = np.cos(zdata) + 0.1 * np.random.randn(100)\n'
         "ax.scatter3D(xdata, ydata, zdata, c=zdata, cmap='Greens');"),
     "the 3d projection left out"),
    (4, ('def f(x, y):\n    return np.sin(np.sqrt(x ^ 2 + y ^ 2))\n\nx = np.linspace(-6, 6, 30)\n'
         'y = np.linspace(-6, 6, 30)\n\nX, Y = np.meshgrid(x, y)\nZ = f(X, Y)'),
     "^ for the power operator"),
    (5, ("fig = plt.figure()\nax = plt.axes(projection='3d')\nax.contour3D(X, Y, 40, cmap='binary')\n"
         "ax.set_xlabel('x')\nax.set_ylabel('y')\nax.set_zlabel('z');"),
     "Z left out of contour3D"),
    (6, 'ax.view_init(elev=60, azimuth=35)\nfig', "view_init's azim keyword spelt out"),
    (7, "fig = plt.figure()\nax = plt.axes(projection='3d')\nax.plot_wireframe(x, y, Z)\nax.set_title('wireframe');",
     "the 1-D x and y for the grid's X and Y (runs)"),
    (9, ('r = np.linspace(0, 6, 20)\ntheta = np.linspace(-0.9 * np.pi, 0.8 * np.pi, 40)\n'
         'r, theta = np.meshgrid(theta, r)\n\nX = r * np.sin(theta)\nY = r * np.cos(theta)\nZ = f(X, Y)\n\n'
         "ax = plt.axes(projection='3d')\nax.plot_surface(X, Y, Z, rstride=1, cstride=1,\n"
         "                cmap='viridis', edgecolor='none');"),
     "meshgrid's arguments swapped (runs)"),
    (9, ('r = np.linspace(0, 6, 20)\ntheta = np.linspace(-0.9 * np.pi, 0.8 * np.pi, 40)\n\nX = r * np.sin(theta)\n'
         "Y = r * np.cos(theta)\nZ = f(X, Y)\n\nax = plt.axes(projection='3d')\n"
         "ax.plot_surface(X, Y, Z, rstride=1, cstride=1,\n                cmap='viridis', edgecolor='none');"),
     "the meshgrid step left out"),
    (10, ('theta = 2 * np.pi * np.random.random(1000)\nr = 6 * np.random.random(1000)\n'
          'x = np.ravel(r * np.sin(theta))\ny = np.ravel(r * np.cos(theta))\nz = f(x)'),
     "the function called with x alone"),
    (11, "ax = plt.axes(projection='3d')\nax.scatter(x, y, z, c=Z, cmap='viridis', linewidth=0.5);",
     "the grid's Z for the points' z as colors"),
    (12, ("ax = plt.axes(projection='3d')\nax.plot_trisurf(X, Y, Z,\n"
          "                cmap='viridis', edgecolor='none');"),
     "the surface grid's X, Y, Z for the scattered x, y, z"),
    (15, ('# radius in x-y plane\nr = 1 + w * np.cos(phi)\n\nx = r * np.cos(theta)\n'
          'y = np.ravel(r * np.sin(theta))\nz = np.ravel(w * np.sin(phi))'),
     "ravel left out for x (runs)"),
    (16, ('# triangulate in the underlying parametrization\nfrom matplotlib.tri import Triangulation\n'
          "tri = Triangulation(w, theta)\n\nax = plt.axes(projection='3d')\n"
          "ax.plot_trisurf(x, y, z, triangles=tri.triangles,\n                cmap='Greys', linewidths=0.2);\n\n"
          "ax.set_xlim(-1, 1); ax.set_ylim(-1, 1); ax.set_zlim(-1, 1)\nax.axis('off');"),
     "the 2-D grids given to Triangulation, not raveled"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.04 (pandas' missing data: None and NaN in numpy arrays,
# numpy's nan-aware aggregates, NaN and None in a Series, pandas' nullable dtypes, isnull and notnull, dropna on a
# Series and a DataFrame with axis, how and thresh, and fillna and forward and back fills): written down before any
# run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0304 = [
    (0, "import numpy as np\nimport panda as pd", "pandas' module name misspelt"),
    (1, "vals1 = np.array([1, None, 2, 3], dtype=int)\nvals1", "an int dtype asked for an array holding None"),
    (5, "vals2 = np.array([1, np.NaN, 3, 4])\nvals2", "numpy's NaN alias removed in numpy 2"),
    (8, "vals2.sum(skipna=True), vals2.min(), vals2.max()", "pandas' skipna keyword given to an ndarray's sum"),
    (11, "x = pd.Series(range(2), dtype='integer')\nx", "a dtype name numpy does not know"),
    (12, "x.iloc[2] = None\nx", "a position past the end set with iloc"),
    (13, "pd.Series([1, np.nan, 2, None, pd.NA], dtype='int32')", "numpy's int32 for pandas' nullable Int32"),
    (15, "data.isnull", "the method not called (runs)"),
    (16, "data[data.notnull]", "the mask's method not called"),
    (17, "data.dropna(inplace=True)", "dropped in place, so nothing shown (runs)"),
    (18, "df = pd.DataFrame([[1,      np.nan, 2],\n"
         "                   [2,      3,      5],\n"
         "                   [np.nan, 4]])\n"
         "df",
     "the last row one value short (runs)"),
    (20, "df.dropna(axis='column')", "the axis name in the singular"),
    (21, "df[3] = [np.nan, np.nan]\ndf", "a new column with one value too few"),
    (22, "df.dropna(axis='columns', how=all)", "the how option unquoted"),
    (23, "df.dropna(axis='rows', how='any', thresh=3)", "how and thresh given together"),
    (24, "data = pd.Series([1, np.nan, 2, None, 3], index=list('abcd'), dtype='Int32')\ndata",
     "an index one label short"),
    (25, "data.fillna()", "the fill value left out"),
    (26, "# forward fill\ndata.ffil()", "the ffill method misspelt"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.02 (matplotlib's simple scatter plots: plt.plot with marker
# format strings, a gallery of markers with a legend, line and marker combined, marker sizes, face and edge colors,
# plt.scatter with per-point colors and sizes, a colorbar, and the iris features as sizes and colors): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code
# cells from 0
PDSH_0402 = [
    (0, ("%matplotlib inline\nimport matplotlib.pyplt as plt\nplt.style.use('seaborn-v0_8-whitegrid')\n"
         "import numpy as np"),
     "pyplot's module name misspelt"),
    (1, "x = np.linspace(0, 10, 30)\ny = np.sin(x)\n\nplt.plot(x, y, 'o', colour='black');",
     "the color keyword in British spelling"),
    (2, ("rng = np.random.default_rng(0)\n"
         "for marker in ['o', '.', ',', 'x', '+', 'v', '^', '<', '>', 's', 'd']:\n"
         "    plt.plot(rng.random(2), rng.random(3), marker, color='black',\n"
         "             label=\"marker='{0}'\".format(marker))\n"
         "plt.legend(numpoints=1, fontsize=13)\nplt.xlim(0, 1.8);"),
     "each marker's y drawn three at a time, its x two"),
    (3, "plt.plot(x, y, '-0k');", "a zero typed for the circle marker's letter o in the format string"),
    (4, ("plt.plot(x, y, '-p', color='gray',\n         markersize=15, linewidth=4,\n         facecolor='white',\n"
         "         markeredgecolor='gray',\n         markeredgewidth=2)\nplt.ylim(-1.2, 1.2);"),
     "the marker's face color given as facecolor"),
    (4, ("plt.plot(x, y, '-p', color='gray',\n         markersize=15, linewidth=4,\n"
         "         markerfacecolor='white',\n         markeredgecolor='gray',\n         markeredgewidth=2)\n"
         "plt.ylim(1.2, -1.2);"),
     "the y limits given high to low, the plot upside down (runs)"),
    (5, "plt.scatter(x, y, 'o');",
     "the marker passed by position as to plt.plot (scatter's third argument is the size)"),
    (6, ("rng = np.random.default_rng(0)\nx = rng.normal(size=100)\ny = rng.normal(size=100)\n"
         "colors = rng.random(100)\nsizes = 1000 * rng.random(100)\n\n"
         "plt.scatter(x, y, color=colors, s=sizes, alpha=0.3)\nplt.colorbar();  # show color scale"),
     "the values to color-map given as color, not c"),
    (6, ("rng = np.random.default_rng(0)\nx = rng.normal(size=100)\ny = rng.normal(size=100)\n"
         "colors = rng.random(100)\nsizes = 1000 * rng.random(100)\n\n"
         "plt.colorbar()\nplt.scatter(x, y, c=colors, s=sizes, alpha=0.3);"),
     "the colorbar asked for before the scatter it shows"),
    (7, ("from sklearn.datasets import load_iris\niris = load_iris()\nfeatures = iris.data\n\n"
         "plt.scatter(features[0], features[1], alpha=0.4,\n"
         "            s=100*features[3], c=iris.target, cmap='viridis')\n"
         "plt.xlabel(iris.feature_names[0])\nplt.ylabel(iris.feature_names[1]);"),
     "the data's transpose left out (its rows are the samples)"),
    (7, ("from sklearn.datasets import load_iris\niris = load_iris()\nfeatures = iris.data.T\n\n"
         "plt.scatter(features[0], features[1], alpha=0.4,\n"
         "            s=100*features[3], c=iris.target, cmap='virdis')\n"
         "plt.xlabel(iris.feature_names[0])\nplt.ylabel(iris.feature_names[1]);"),
     "the colormap's name misspelt"),
    (7, ("from sklearn.datasets import load_iris\niris = load_iris()\nfeatures = iris.data.T\n\n"
         "plt.scatter(features[0], features[1], alpha=0.4,\n"
         "            s=100*features[2], c=iris.target, cmap='viridis')\n"
         "plt.xlabel(iris.feature_names[0])\nplt.ylabel(iris.feature_names[1]);"),
     "the sizes from petal length (feature 2), not petal width (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.03 (matplotlib's error bars: plt.errorbar with yerr and a
# format string, error bars styled with ecolor, elinewidth and capsize, and a continuous error band from a Gaussian
# process fit's predicted standard deviation with plt.fill_between): written down before any run of the guard, from
# the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0403 = [
    (0, ("%matplotlib inlin\nimport matplotlib.pyplot as plt\nplt.style.use('seaborn-v0_8-whitegrid')\n"
         "import numpy as np"),
     "the inline backend's name misspelt"),
    (1, ("x = np.linspace(0, 10, 50)\ndy = 0.8\ny = np.sin(x) + dy * np.random.randn(5)\n\n"
         "plt.errorbar(x, y, yerr=dy, fmt='.k');"),
     "five noise values drawn for fifty points"),
    (1, ("x = np.linspace(0, 10, 50)\ndy = 0.8\ny = np.sin(x) + dy * np.random.randn(50)\n\n"
         "plt.errorbar(x, y, yerr=-dy, fmt='.k');"),
     "the error given with a minus sign"),
    (2, ("plt.errorbar(x, y, yerr=dy, fmt='o', color='black',\n"
         "             ecolor='light gray', elinewidth=3, capsize=0);"),
     "the error bars' color name written with a space"),
    (2, ("plt.errorbar(x, y, xerr=dy, fmt='o', color='black',\n"
         "             ecolor='lightgray', elinewidth=3, capsize=0);"),
     "the error given as xerr, horizontal bars for vertical ones (runs)"),
    (3, ("from sklearn.gaussian_process import GaussianProcessRegressor\n\n# define the model and draw some data\n"
         "model = lambda x: x * np.sin(x)\nxdata = np.array([1, 3, 5, 6, 8])\nydata = model(xdata)\n\n"
         "# Compute the Gaussian process fit\ngp = GaussianProcessRegressor()\ngp.fit(xdata, ydata)\n\n"
         "xfit = np.linspace(0, 10, 1000)\nyfit, dyfit = gp.predict(xfit[:, np.newaxis], return_std=True)"),
     "the training x fitted as a 1-D array, without np.newaxis"),
    (3, ("from sklearn.gaussian_process import GaussianProcessRegressor\n\n# define the model and draw some data\n"
         "model = lambda x: x * np.sin(x)\nxdata = np.array([1, 3, 5, 6, 8])\nydata = model(xdata)\n\n"
         "# Compute the Gaussian process fit\ngp = GaussianProcessRegressor()\n"
         "gp.fit(xdata[:, np.newaxis], ydata)\n\n"
         "xfit = np.linspace(0, 10, 1000)\nyfit, dyfit = gp.predict(xfit[:, np.newaxis])"),
     "predict's return_std left out, two results unpacked still"),
    (3, ("from sklearn.gaussian_process import GaussianProcessRegressor\n\n# define the model and draw some data\n"
         "model = lambda x: x * np.sin(x)\nxdata = np.array([1, 3, 5, 6, 8])\nydata = model(xdata)\n\n"
         "# Compute the Gaussian process fit\ngp = GaussianProcessRegressor\ngp.fit(xdata[:, np.newaxis], ydata)\n\n"
         "xfit = np.linspace(0, 10, 1000)\nyfit, dyfit = gp.predict(xfit[:, np.newaxis], return_std=True)"),
     "the regressor class not instantiated"),
    (4, ("# Visualize the result\nplt.plot(xdata, ydata, 'or')\nplt.plot(xfit, yfit, '-', color='gray')\n"
         "plt.fill_between(xdata, yfit - dyfit, yfit + dyfit,\n                 color='gray', alpha=0.2)\n"
         "plt.xlim(0, 10);"),
     "the band's x taken from the five data points, not the fit's grid"),
    (4, ("# Visualize the result\nplt.plot(xdata, ydata, 'or')\nplt.plot(xfit, yfit, '-', color='gray')\n"
         "plt.fill_between(xfit, yfit - dyfit, yfit - dyfit,\n                 color='gray', alpha=0.2)\n"
         "plt.xlim(0, 10);"),
     "the band's upper edge typed with a minus too, a band of no width (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 04.06 (matplotlib's legends: ax.legend with loc, frameon, ncol,
# fancybox, framealpha, shadow and borderpad on a figure shown again, choosing the legend's lines and labels from a
# plot of several columns, and labels set on some lines only): written down before any run of the guard, from the
# notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0406 = [
    (0, "import matplotlib.pyplot as plt\nplt.style.use(seaborn-whitegrid)", "the style's name unquoted"),
    (2, ("x = np.linspace(0, 10, 1000)\nfig, ax = plt.subplot()\nax.plot(x, np.sin(x), '-b', label='Sine')\n"
         "ax.plot(x, np.cos(x), '--r', label='Cosine')\nax.axis('equal')\nleg = ax.legend()"),
     "plt.subplot for plt.subplots, unpacked into fig and ax"),
    (2, ("x = np.linspace(0, 10, 1000)\nfig, ax = plt.subplots()\nax.plot(x, np.sin(x), '-b', lable='Sine')\n"
         "ax.plot(x, np.cos(x), '--r', label='Cosine')\nax.axis('equal')\nleg = ax.legend()"),
     "the label keyword misspelt"),
    (2, ("x = np.linspace(0, 10, 1000)\nfig, ax = plt.subplots()\nax.plot(x, np.sin(x), '-b', label='Sine')\n"
         "ax.plot(x, np.cos(x), '--r', label='Cosine')\nax.axis('equals')\nleg = ax.legend()"),
     "the axis option 'equal' written as 'equals'"),
    (3, "ax.legend(loc='top left', frameon=True)\nfig", "the location 'upper left' written as 'top left'"),
    (4, "ax.legend(loc='lower center', columns=2)\nfig", "the legend's column count given as columns"),
    (4, "plt.legend(loc='lower center', ncol=2)\nfig",
     "the legend put on pyplot's current axes (a new, empty figure), not on ax (runs)"),
    (5, "ax.legend(frameon=True, fancybox=True, framealpha=100,\n          shadow=True, borderpad=1)\nfig",
     "the frame's opacity given as a percentage"),
    (6, ("y = np.sin(x + np.pi * np.arange(0, 2, 0.5))\nlines = plt.plot(x, y)\n\n"
         "# lines is a list of plt.Line2D instances\nplt.legend(lines[:2], ['first', 'second'], frameon=True);"),
     "x not made a column (np.newaxis) before the four phases are added"),
    (6, ("y = np.sin(x[:, np.newaxis] + np.pi * np.arange(0, 2, 0.5))\nlines = plt.plot(x, y)\n\n"
         "# lines is a list of plt.Line2D instances\nplt.legend(['first', 'second'], lines[:2], frameon=True);"),
     "the labels and the lines passed in swapped order (runs)"),
    (6, ("y = np.sin(x[:, np.newaxis] + np.pi * np.arange(0, 2, 0.5))\nlines = plt.plot(x, y)\n\n"
         "# lines is a list of plt.Line2D instances\nplt.legend(lines[2], ['first', 'second'], frameon=True);"),
     "one line, lines[2], given for the slice lines[:2]"),
    (7, ("plt.plot(x, y[0], label='first')\nplt.plot(x, y[:, 1], label='second')\nplt.plot(x, y[:, 2:])\n"
         "plt.legend(frameon=True);"),
     "the first column taken as y[0], the first row"),
    (7, ("plt.plot(x, y[:, 0], label='first')\nplt.plot(x, y[:, 0], label='second')\nplt.plot(x, y[:, 2:])\n"
         "plt.legend(frameon=True);"),
     "the second line drawn from the first column again (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.02 (data indexing and selection: a Series as a dict (keys,
# items, `in`, adding a key) and as a 1-D array (slices by explicit and implicit index, masks, fancy indexing), the
# loc and iloc indexers on an integer index, a DataFrame as a dict of columns (by key and attribute, adding a
# column) and as a 2-D array (values, T, a row), iloc and loc with slices, masks and lists, setting a value with
# iloc, and [] slicing and masking rows): written down before any run of the guard, from the notebook's sources
# alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0302 = [
    (0, "import pandas as pd\ndata = pd.series([0.25, 0.5, 0.75, 1.0],\n                 index=['a', 'b', 'c', 'd'])\n"
        "data",
     "the Series class in lower case"),
    (2, "'a' in data.values", "membership tested on the values, not the index (runs: False)"),
    (4, "list(data.iteritems())", "iteritems, removed in pandas 2"),
    (5, "data['e'] == 1.25\ndata", "a comparison typed for the assignment"),
    (6, "# slicing by explicit index\ndata[a:c]", "the labels unquoted"),
    (8, "# masking\ndata[(data > 0.3) and (data < 0.8)]", "Python's and for the element-wise &"),
    (9, "# fancy indexing\ndata[{'a', 'e'}]", "a set of labels in braces for a list"),
    (11, "# explicit index when indexing\ndata[0]", "a position for the first item on an integer index"),
    (13, "data.loc(1)", "the indexer called with parentheses"),
    (16, "data.ix[1:3]", "the ix indexer, removed in pandas 1.0"),
    (17, ("area = pd.Series({'California': 423967, 'Texas': 695662,\n"
          "                  'Florida': 170312, 'New York': 141297,\n"
          "                  'Pennsylvania': 119280})\n"
          "pop = pd.Series({'California': 39538223, 'Texas': 29145505,\n"
          "                 'Florida': 21538187, 'New York': 20201249,\n"
          "                 'Pennsylvania': 13002700})\n"
          "data = pd.DataFrame([area, pop])\ndata"),
     "a list of the Series for a dict (runs: the states as columns)"),
    (19, "data.density", "a column read before it is added"),
    (22, "data.values()", "the values attribute called"),
    (25, "data['California']", "a row label to the column indexer"),
    (28, "data.loc[density > 120, ['pop', 'density']]", "the column named bare, without data."),
    (29, "data.iloc[0][2] = 90\ndata", "a chained assignment on a row's copy (runs: data unchanged)"),
    (31, "data[1:3, :]", "a numpy-style row and column slice to []"),
    (32, "data[data['density' > 120]]", "the comparison inside the column's brackets"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.07 (support vector machines: two make_blobs clusters and the
# lines that separate them, margins drawn with fill_between, a linear SVC with a large C, the notebook's
# plot_svc_decision_function helper (decision function on a grid, contour of the margins, the support vectors), the
# fit's support_vectors_, plot_svm on the first 60 and 120 points and its ipywidgets interact, make_circles and a
# radial basis feature shown in 3D, an rbf kernel, and softening the margin with C on overlapping blobs): written down
# before any run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code
# cells from 0
PDSH_0507 = [
    (0, ("%matplotlib inline\nimport numpy as np\nimport matplotlib.pylot as plt\n"
         "plt.style.use('seaborn-whitegrid')\nfrom scipy import stats"),
     "the pyplot module misspelt"),
    (1, ("from sklearn.datasets.samples_generator import make_blobs\n"
         "X, y = make_blobs(n_samples=50, centers=2,\n                  random_state=0, cluster_std=0.60)\n"
         "plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn');"),
     "make_blobs imported from the first edition's module path"),
    (2, ("xfit = np.linspace(-1, 3.5, 0.1)\nplt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\n"
         "plt.plot([0.6], [2.1], 'x', color='red', markeredgewidth=2, markersize=10)\n\n"
         "for m, b in [(1, 0.65), (0.5, 1.6), (-0.2, 2.9)]:\n    plt.plot(xfit, m * xfit + b, '-k')\n\n"
         "plt.xlim(-1, 3.5);"),
     "a step given to linspace where it takes a number of points"),
    (3, ("xfit = np.linspace(-1, 3.5)\nplt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\n\n"
         "for m, b, d in [(1, 0.65), (0.5, 1.6, 0.55), (-0.2, 2.9, 0.2)]:\n    yfit = m * xfit + b\n"
         "    plt.plot(xfit, yfit, '-k')\n    plt.fill_between(xfit, yfit - d, yfit + d, edgecolor='none',\n"
         "                     color='lightgray', alpha=0.5)\n\nplt.xlim(-1, 3.5);"),
     "the first line's margin width left out of its tuple"),
    (4, ('from sklearn.svm import SVC # "Support vector classifier"\nmodel = SVC(kernel=\'linar\', C=1E10)\n'
         "model.fit(X, y)"),
     "the kernel's name misspelt"),
    (5, ("def plot_svc_decision_function(model, ax=None, plot_support=True)\n"
         '    """Plot the decision function for a 2D SVC"""\n    if ax is None:\n        ax = plt.gca()\n'
         "    xlim = ax.get_xlim()\n    ylim = ax.get_ylim()\n    \n    # create grid to evaluate model\n"
         "    x = np.linspace(xlim[0], xlim[1], 30)\n    y = np.linspace(ylim[0], ylim[1], 30)\n"
         "    Y, X = np.meshgrid(y, x)\n    xy = np.vstack([X.ravel(), Y.ravel()]).T\n"
         "    P = model.decision_function(xy).reshape(X.shape)\n    \n"
         "    # plot decision boundary and margins\n    ax.contour(X, Y, P, colors='k',\n"
         "               levels=[-1, 0, 1], alpha=0.5,\n               linestyles=['--', '-', '--'])\n    \n"
         "    # plot support vectors\n    if plot_support:\n"
         "        ax.scatter(model.support_vectors_[:, 0],\n"
         "                   model.support_vectors_[:, 1],\n"
         "                   s=300, linewidth=1, edgecolors='black',\n"
         "                   facecolors='none');\n    ax.set_xlim(xlim)\n    ax.set_ylim(ylim)"),
     "the colon after the def line left out"),
    (6, "plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\nplot_svc_decision_function(model, plt);",
     "the pyplot module passed as the Axes"),
    (7, "model.support_vectors", "the fitted attribute's trailing underscore left out"),
    (8, ("def plot_svm(N=10, ax=None):\n    X, y = make_blobs(n_samples=200, centers=2,\n"
         "                      random_state=0, cluster_std=0.60)\n    X = X[:N]\n    y = y[:N]\n"
         "    model = SVC(kernel='linear', C=1E10)\n    model.fit(X, y)\n    \n    ax = ax or plt.gca()\n"
         "    ax.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\n    ax.set_xlim(-1, 4)\n"
         "    ax.set_ylim(-1, 6)\n    plot_svc_decision_function(model, ax)\n\n"
         "fig, ax = plt.subplots(1, 2, figsize=(16, 6))\n"
         "fig.subplots_adjust(left=0.0625, right=0.95, wspace=0.1)\nfor axi, N in zip(ax, [60, 120]):\n"
         "    plot_svm(axi, N)\n    axi.set_title('N = {0}'.format(N))"),
     "the Axes and the sample count passed in swapped order"),
    (9, "from ipywidgets import interact, fixed\ninteract(plot_svm, N=(10, 200), ax=None);",
     "the Axes argument given as a bare None, not fixed(None)"),
    (10, ("from sklearn.datasets import make_circles\nX, y = make_circles(100, factor=10, noise=.1)\n\n"
          "clf = SVC(kernel='linear').fit(X, y)\n\nplt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\n"
          "plot_svc_decision_function(clf, plot_support=False);"),
     "the circles' scale factor given above one"),
    (11, "r = np.exp(-(X ** 2).sum(0))", "the squares summed over the wrong axis (runs)"),
    (12, ("from mpl_toolkits import mplot3d\n\nax = plt.subplot()\n"
          "ax.scatter3D(X[:, 0], X[:, 1], r, c=y, s=50, cmap='autumn')\nax.view_init(elev=20, azim=30)\n"
          "ax.set_xlabel('x')\nax.set_ylabel('y')\nax.set_zlabel('r');"),
     "the 3d projection left out of the subplot"),
    (13, "clf = SVC(kernel='rbf', C=1E6)\nclf.fit(X)", "the labels left out of fit"),
    (14, ("plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\nplot_svc_decision_function(clf)\n"
          "plt.scatter(clf.support_vectors_[0], clf.support_vectors_[1],\n"
          "            s=300, lw=1, facecolors='none');"),
     "the support vectors' rows taken for their columns (runs)"),
    (15, ("X, y = make_blobs(n_samples=100, centres=2,\n                  random_state=0, cluster_std=1.2)\n"
          "plt.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn');"),
     "the centers keyword spelt the British way"),
    (16, ("X, y = make_blobs(n_samples=100, centers=2,\n                  random_state=0, cluster_std=0.8)\n"
          "\nfig, ax = plt.subplots(1, 2, figsize=(16, 6))\n"
          "fig.subplots_adjust(left=0.0625, right=0.95, wspace=0.1)\n\nfor axi, C in zip(ax, [10.0, 0.1]):\n"
          "    model = SVC(kernel='linear', c=C).fit(X, y)\n"
          "    axi.scatter(X[:, 0], X[:, 1], c=y, s=50, cmap='autumn')\n"
          "    plot_svc_decision_function(model, axi)\n    axi.scatter(model.support_vectors_[:, 0],\n"
          "                model.support_vectors_[:, 1],\n                s=300, lw=1, facecolors='none');\n"
          "    axi.set_title('C = {0:.1f}'.format(C), size=14)"),
     "the C keyword in lower case"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 05.13 (kernel density estimation: the notebook's make_data of a
# seeded RandomState, a density histogram and its area, histograms of shifted bins, stacked blocks, a tophat and a
# sum of gaussians by hand, scikit-learn's KernelDensity fitted on a column and its score_samples, a bandwidth chosen
# by GridSearchCV with LeaveOneOut, the notebook's KDEClassifier estimator class, its bandwidth searched on the
# bundled digits and plotted from cv_results_, and GaussianNB's cross-validated accuracy): written down before any
# run of the guard, from the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0513 = [
    (0, ("%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.style('seaborn-v0_8-whitegrid')\n"
         "import numpy as np"),
     "the style module called where its use function is meant"),
    (1, ("def make_data(N, f=0.3, rseed=1):\n    rand = np.random.RandomState(rseed)\n"
         "    x = rand.randn(N)\n    x[f * N:] += 5\n    return x\n\nx = make_data(1000)"),
     "the int() round the slice's start left out"),
    (2, "hist = plt.hist(x, bins=30, normed=True)", "the normed keyword matplotlib removed (density now)"),
    (3, "density, bins = hist\nwidths = bins[1:] - bins[:-1]\n(density * widths).sum()",
     "the patches left out of the unpacking"),
    (4, "x = make_data[20]\nbins = np.linspace(-5, 10, 10)", "the function indexed with brackets, not called"),
    (5, ("fig, ax = plt.subplots(1, 2, figsize=(12, 4),\n                       sharex=True, sharey=True,\n"
         "                       subplot_kw={'xlim':(-4, 9),\n"
         "                                   'ylim':(-0.02, 0.3)})\nfig.subplots_adjust(wspace=0.05)\n"
         "for i, offset in enumerate([0.0, 0.6]):\n    ax.hist(x, bins=bins + offset, density=True)\n"
         "    ax[i].plot(x, np.full_like(x, -0.01), '|k',\n               markeredgewidth=1)"),
     "the array of Axes used without its index"),
    (6, ("fig, ax = plt.subplots()\nbins = np.arange(-3, 8)\nax.plot(x, np.full_like(x, -0.1), '|k',\n"
         "        markeredgewidth=1)\nfor count, edge in np.histogram(x, bins):\n"
         "    for i in range(count):\n        ax.add_patch(plt.Rectangle(\n"
         "            (edge, i), 1, 1, ec='black', alpha=0.5))\nax.set_xlim(-4, 8)\nax.set_ylim(-0.2, 8)"),
     "the histogram's counts and edges iterated without zip(*...)"),
    (7, ("x_d = np.linspace(-4, 8, 2000)\ndensity = sum((abs(xi - x_d) < 0.5) for xi in x_d)\n\n"
         "plt.fill_between(x_d, density, alpha=0.5)\n"
         "plt.plot(x, np.full_like(x, -0.1), '|k', markeredgewidth=1)\n\nplt.axis([-4, 8, -0.2, 8]);"),
     "the grid iterated where the data points are meant (runs)"),
    (8, ("from scipy.stats import norm\nx_d = np.linspace(-4, 8, 1000)\n"
         "density = sum(norm(xi).pdf(x_d) for xi in x)\n\nplt.fill_between(x_d, density, alpha=0.5)\n"
         "plt.plot(x, np.full_like(x, -0.1), '|k', markeredgewidth=1)\n\nplt.axis(-4, 8, -0.2, 5);"),
     "the axis limits passed as four arguments, not one list"),
    (9, ("from sklearn.neighbors import KernelDensity\n\n# instantiate and fit the KDE model\n"
         "kde = KernelDensity(bandwidth=1.0, kernel='gaussian')\nkde.fit(x)\n\n"
         "# score_samples returns the log of the probability density\n"
         "logprob = kde.score_samples(x_d[:, None])\n\nplt.fill_between(x_d, np.exp(logprob), alpha=0.5)\n"
         "plt.plot(x, np.full_like(x, -0.01), '|k', markeredgewidth=1)\nplt.ylim(-0.02, 0.22);"),
     "the 1-D sample fitted without making it a column"),
    (10, ("from sklearn.model_selection import GridSearchCV\n"
          "from sklearn.model_selection import LeaveOneOut\n\nbandwidths = 10 ** np.linspace(-1, 1, 100)\n"
          "grid = GridSearchCV(KernelDensity(kernel='gaussian'),\n"
          "                    {'bandwidths': bandwidths},\n                    cv=LeaveOneOut())\n"
          "grid.fit(x[:, None]);"),
     "the parameter grid's key misspelt"),
    (11, "grid.best_params_()", "the best parameters' dict called"),
    (12, ("from sklearn.base import BaseEstimator, ClassifierMixing\n\n\n"
          "class KDEClassifier(BaseEstimator, ClassifierMixin):\n"
          '    """Bayesian generative classification based on KDE\n    \n    Parameters\n    ----------\n'
          "    bandwidth : float\n        the kernel bandwidth within each class\n    kernel : str\n"
          '        the kernel name, passed to KernelDensity\n    """\n'
          "    def __init__(self, bandwidth=1.0, kernel='gaussian'):\n        self.bandwidth = bandwidth\n"
          "        self.kernel = kernel\n        \n    def fit(self, X, y):\n"
          "        self.classes_ = np.sort(np.unique(y))\n"
          "        training_sets = [X[y == yi] for yi in self.classes_]\n"
          "        self.models_ = [KernelDensity(bandwidth=self.bandwidth,\n"
          "                                      kernel=self.kernel).fit(Xi)\n"
          "                        for Xi in training_sets]\n"
          "        self.logpriors_ = [np.log(Xi.shape[0] / X.shape[0])\n"
          "                           for Xi in training_sets]\n        return self\n        \n"
          "    def predict_proba(self, X):\n        logprobs = np.array([model.score_samples(X)\n"
          "                             for model in self.models_]).T\n"
          "        result = np.exp(logprobs + self.logpriors_)\n"
          "        return result / result.sum(axis=1, keepdims=True)\n        \n    def predict(self, X):\n"
          "        return self.classes_[np.argmax(self.predict_proba(X), 1)]"),
     "the mixin's name misspelt in the import"),
    (13, ("from sklearn.datasets import load_digits\nfrom sklearn.model_selection import GridSearchCV\n\n"
          "digits = load_digits()\n\ngrid = GridSearchCV(KDEClassifier(),\n"
          "                    {'bandwidth': np.logspace(0, 2, 100)})\n"
          "grid.fit(digits.images, digits.target);"),
     "the 8x8 images fitted where the flat data is meant"),
    (14, ("fig, ax = plt.subplots()\nax.semilogx(np.array(grid.cv_results_['param_bandwidth']),\n"
          "            grid.cv_results_['mean_test_scores'])\n"
          "ax.set(title='KDE Model Performance', ylim=(0, 1),\n"
          "       xlabel='bandwidth', ylabel='accuracy')\nprint(f'best param: {grid.best_params_}')\n"
          "print(f'accuracy = {grid.best_score_}')"),
     "a results key misspelt"),
    (15, ("from sklearn.naive_bayes import GaussianNB\nfrom sklearn.model_selection import cross_val_score\n"
          "cross_val_score(GaussianNB(), digits.data, digits.target).mean"),
     "the mean method not called (runs)"),
]
# jakevdp/PythonDataScienceHandbook (second edition), 03.06 (combining datasets with concat: the notebook's make_df
# and display helpers, numpy's concatenate with an axis, pd.concat of Series and of DataFrames by rows and by
# columns, duplicate indices with verify_integrity, ignore_index and keys, concatenating frames of other columns with
# join='inner' or a reindex, and the DataFrame.append of old pandas): written down before any run of the guard, from
# the notebook's sources alone (held out; checked in a plain kernel only); code cells from 0
PDSH_0306 = [
    (0, "import Pandas as pd\nimport numpy as np", "the pandas module capitalised"),
    (1, ('def make_df(cols, ind):\n    """Quickly make a DataFrame"""\n'
         "    data = {c: [str(c) + i for i in ind]\n            for c in cols}\n"
         "    return pd.DataFrame(data, ind)\n\n# example DataFrame\nmake_df('ABC', range(3))"),
     "the index's numbers joined to the label without str()"),
    (3, "x = [1, 2, 3]\ny = [4, 5, 6]\nz = [7, 8, 9]\nnp.concatenate(x, y, z)",
     "the arrays as separate arguments, not one list"),
    (4, "x = [[1, 2],\n     [3, 4]]\nnp.concatenate([x, x], axis=2)", "an axis the 2-D lists do not have"),
    (5, "ser1 = pd.Series(['A', 'B', 'C'], index=[1, 2, 3])\nser2 = pd.Series(['D', 'E', 'F'], index=[4, 5, 6])\n"
        "pd.concatenate([ser1, ser2])",
     "numpy's concatenate looked up in pandas"),
    (6, "df1 = make_df('AB', [1, 2])\ndf2 = make_df('AB', [3, 4])\ndisplay(df1, df2, pd.concat([df1, df2]))",
     "the frames themselves to display, not their names as strings"),
    (7, "df3 = make_df('AB', [0, 1])\ndf4 = make_df('CD', [0, 1])\n"
        "display('df3', 'df4', \"pd.concat([df3, df4], axis='column')\")",
     "the axis name in the singular"),
    (8, ("x = make_df('AB', [0, 1])\ny = make_df('AB', [2, 3])\ny.index == x.index  # make indices match\n"
         "display('x', 'y', 'pd.concat([x, y])')"),
     "a comparison for the index assignment (runs: no duplicates)"),
    (9, 'try:\n    pd.concat([x, y], verify=True)\nexcept ValueError as e:\n    print("ValueError:", e)',
     "verify_integrity shortened"),
    (10, "display('x', 'y', 'pd.concat([x, y], ignore_index=true)')", "True in lower case"),
    (11, "display('x', 'y', \"pd.concat([x, y], keys=['x'])\")", "one key for two frames"),
    (12, "df5 = make_df('ABC', 2)\ndf6 = make_df('BCD', [3, 4])\ndisplay('df5', 'df6', 'pd.concat([df5, df6])')",
     "a row count for the list of index labels"),
    (13, "display('df5', 'df6',\n        \"pd.concat([df5, df6], join='intersection')\")",
     "a set operation's name for inner"),
    (14, "pd.concat([df5, df6], join_axes=[df5.columns])", "join_axes, removed in pandas 1.0"),
    (14, "pd.concat([df5, df6.reindex(df5.columns)])", "reindexed without axis=1 (runs: rows A, B and C, all NaN)"),
    (15, "display('df1', 'df2', 'pd.append([df1, df2])')", "append looked up as a pandas function"),
]

TRIALS = {"ch05": ("wesm/pydata-book/ch05.ipynb", CH05), "ch07": ("wesm/pydata-book/ch07.ipynb", CH07),
          "ch10": ("wesm/pydata-book/ch10.ipynb", CH10),
          "homl2-ch02": ("ageron/handson-ml2/02_end_to_end_machine_learning_project.ipynb", HOML2_CH02),
          "pdsh-0503": ("jakevdp/PythonDataScienceHandbook/notebooks/05.03-Hyperparameters-and-Model-Validation.ipynb",
                        PDSH_0503),
          "pdsh-0504": ("jakevdp/PythonDataScienceHandbook/notebooks/05.04-Feature-Engineering.ipynb", PDSH_0504),
          "homl3-ch04": ("ageron/handson-ml3/04_training_linear_models.ipynb", HOML3_CH04),
          "homl3-ch05": ("ageron/handson-ml3/05_support_vector_machines.ipynb", HOML3_CH05),
          "homl3-ch06": ("ageron/handson-ml3/06_decision_trees.ipynb", HOML3_CH06),
          "homl3-ch07": ("ageron/handson-ml3/07_ensemble_learning_and_random_forests.ipynb", HOML3_CH07),
          "homl3-ch09": ("ageron/handson-ml3/09_unsupervised_learning.ipynb", HOML3_CH09),
          "pdsh-0508": ("jakevdp/PythonDataScienceHandbook/notebooks/05.08-Random-Forests.ipynb", PDSH_0508),
          "pdsh-0511": ("jakevdp/PythonDataScienceHandbook/notebooks/05.11-K-Means.ipynb", PDSH_0511),
          "pdsh-0512": ("jakevdp/PythonDataScienceHandbook/notebooks/05.12-Gaussian-Mixtures.ipynb", PDSH_0512),
          "homl3-tools-pandas": ("ageron/handson-ml3/tools_pandas.ipynb", HOML3_TOOLS_PANDAS),
          "pdsh-0307": ("jakevdp/PythonDataScienceHandbook/notebooks/03.07-Merge-and-Join.ipynb", PDSH_0307),
          "homl3-tools-matplotlib": ("ageron/handson-ml3/tools_matplotlib.ipynb", HOML3_TOOLS_MATPLOTLIB),
          "homl3-tools-numpy": ("ageron/handson-ml3/tools_numpy.ipynb", HOML3_TOOLS_NUMPY),
          "pdsh-0305": ("jakevdp/PythonDataScienceHandbook/notebooks/03.05-Hierarchical-Indexing.ipynb", PDSH_0305),
          "homl3-ch08": ("ageron/handson-ml3/08_dimensionality_reduction.ipynb", HOML3_CH08),
          "pdsh-0303": ("jakevdp/PythonDataScienceHandbook/notebooks/03.03-Operations-in-Pandas.ipynb", PDSH_0303),
          "pdsh-0304": ("jakevdp/PythonDataScienceHandbook/notebooks/03.04-Missing-Values.ipynb", PDSH_0304),
          "pdsh-0302": ("jakevdp/PythonDataScienceHandbook/notebooks/03.02-Data-Indexing-and-Selection.ipynb",
                        PDSH_0302),
          "pdsh-0306": ("jakevdp/PythonDataScienceHandbook/notebooks/03.06-Concat-And-Append.ipynb", PDSH_0306),
          "pdsh-0207": ("jakevdp/PythonDataScienceHandbook/notebooks/02.07-Fancy-Indexing.ipynb", PDSH_0207),
          "pdsh-0208": ("jakevdp/PythonDataScienceHandbook/notebooks/02.08-Sorting.ipynb", PDSH_0208),
          "pdsh-0408": ("jakevdp/PythonDataScienceHandbook/notebooks/04.08-Multiple-Subplots.ipynb", PDSH_0408),
          "pdsh-0204": ("jakevdp/PythonDataScienceHandbook/notebooks/02.04-Computation-on-arrays-aggregates.ipynb",
                        PDSH_0204),
          "pdsh-0301": ("jakevdp/PythonDataScienceHandbook/notebooks/03.01-Introducing-Pandas-Objects.ipynb",
                        PDSH_0301),
          "pdsh-0310": ("jakevdp/PythonDataScienceHandbook/notebooks/03.10-Working-With-Strings.ipynb", PDSH_0310),
          "pdsh-0401": ("jakevdp/PythonDataScienceHandbook/notebooks/04.01-Simple-Line-Plots.ipynb", PDSH_0401),
          "pdsh-0404": ("jakevdp/PythonDataScienceHandbook/notebooks/04.04-Density-and-Contour-Plots.ipynb",
                        PDSH_0404),
          "pdsh-0405": ("jakevdp/PythonDataScienceHandbook/notebooks/04.05-Histograms-and-Binnings.ipynb",
                        PDSH_0405),
          "pdsh-0506": ("jakevdp/PythonDataScienceHandbook/notebooks/05.06-Linear-Regression.ipynb", PDSH_0506),
          "pdsh-0509": ("jakevdp/PythonDataScienceHandbook/notebooks/05.09-Principal-Component-Analysis.ipynb",
                        PDSH_0509),
          "pdsh-0205": ("jakevdp/PythonDataScienceHandbook/notebooks/02.05-Computation-on-arrays-broadcasting.ipynb",
                        PDSH_0205),
          "pdsh-0206": ("jakevdp/PythonDataScienceHandbook/notebooks/02.06-Boolean-Arrays-and-Masks.ipynb", PDSH_0206),
          "pdsh-0311": ("jakevdp/PythonDataScienceHandbook/notebooks/03.11-Working-with-Time-Series.ipynb", PDSH_0311),
          "pdsh-0312": ("jakevdp/PythonDataScienceHandbook/notebooks/03.12-Performance-Eval-and-Query.ipynb",
                        PDSH_0312),
          "pdsh-0402": ("jakevdp/PythonDataScienceHandbook/notebooks/04.02-Simple-Scatter-Plots.ipynb", PDSH_0402),
          "pdsh-0403": ("jakevdp/PythonDataScienceHandbook/notebooks/04.03-Errorbars.ipynb", PDSH_0403),
          "pdsh-0406": ("jakevdp/PythonDataScienceHandbook/notebooks/04.06-Customizing-Legends.ipynb", PDSH_0406),
          "pdsh-0407": ("jakevdp/PythonDataScienceHandbook/notebooks/04.07-Customizing-Colorbars.ipynb", PDSH_0407),
          "pdsh-0409": ("jakevdp/PythonDataScienceHandbook/notebooks/04.09-Text-and-Annotation.ipynb", PDSH_0409),
          "pdsh-0412": ("jakevdp/PythonDataScienceHandbook/notebooks/04.12-Three-Dimensional-Plotting.ipynb",
                        PDSH_0412),
          "pdsh-0507": ("jakevdp/PythonDataScienceHandbook/notebooks/05.07-Support-Vector-Machines.ipynb", PDSH_0507),
          "pdsh-0513": ("jakevdp/PythonDataScienceHandbook/notebooks/05.13-Kernel-Density-Estimation.ipynb",
                        PDSH_0513),
          "pdsh-0201": ("jakevdp/PythonDataScienceHandbook/notebooks/02.01-Understanding-Data-Types.ipynb", PDSH_0201),
          "pdsh-0202": ("jakevdp/PythonDataScienceHandbook/notebooks/02.02-The-Basics-Of-NumPy-Arrays.ipynb",
                        PDSH_0202),
          "pdsh-0203": ("jakevdp/PythonDataScienceHandbook/notebooks/02.03-Computation-on-arrays-ufuncs.ipynb",
                        PDSH_0203),
          "pdsh-0209": ("jakevdp/PythonDataScienceHandbook/notebooks/02.09-Structured-Data-NumPy.ipynb", PDSH_0209),
          "pdsh-0410": ("jakevdp/PythonDataScienceHandbook/notebooks/04.10-Customizing-Ticks.ipynb", PDSH_0410),
          "pdsh-0411": ("jakevdp/PythonDataScienceHandbook/notebooks/04.11-Settings-and-Stylesheets.ipynb", PDSH_0411),
          "pdsh-0502": ("jakevdp/PythonDataScienceHandbook/notebooks/05.02-Introducing-Scikit-Learn.ipynb",
                        PDSH_0502),
          "pdsh-0505": ("jakevdp/PythonDataScienceHandbook/notebooks/05.05-Naive-Bayes.ipynb", PDSH_0505),
          "homl3-math-linear-algebra": ("ageron/handson-ml3/math_linear_algebra.ipynb", HOML3_MATH_LINEAR_ALGEBRA),
          "wwt-06": ("jakevdp/WhirlwindTourOfPython/06-Built-in-Data-Structures.ipynb", WWT_06),
          "wwt-15": ("jakevdp/WhirlwindTourOfPython/15-Preview-of-Data-Science-Tools.ipynb", WWT_15),
          "wwt-14": ("jakevdp/WhirlwindTourOfPython/14-Strings-and-Regular-Expressions.ipynb", WWT_14),
          "imlp-04": ("amueller/introduction_to_ml_with_python/04-representing-data-feature-engineering.ipynb",
                      IMLP_04),
          "imlp-06": ("amueller/introduction_to_ml_with_python/06-algorithm-chains-and-pipelines.ipynb", IMLP_06),
          "imlp-01": ("amueller/introduction_to_ml_with_python/01-introduction.ipynb", IMLP_01),
          "homl3-extra-gd": ("ageron/handson-ml3/extra_gradient_descent_comparison.ipynb", HOML3_EXTRA_GD),
          "homl3-math-calculus": ("ageron/handson-ml3/math_differential_calculus.ipynb", HOML3_MATH_CALCULUS),
          "imlp-05": ("amueller/introduction_to_ml_with_python/05-model-evaluation-and-improvement.ipynb",
                      IMLP_05)}
# a notebook read from a file (in a checkout of its repository, --data): how its downloads are
# made local (the machine may have no internet; the files are in the repository), and the code
# cells run (ch02's exercise solutions from cell 116 on are SVR grid searches of hours on 2 cores)
# introduction_to_ml_with_python's `from preamble import *` as it runs here (FROM_FILE's comments say why): the
# checkout on sys.path, IPython.display lent matplotlib_inline's set_matplotlib_formats (removed in IPython 9) and
# matplotlib.pyplot standing in for imageio (not installed) before the same import
_IMLP_PREAMBLE = (0, "from preamble import *",
                  ('import sys; sys.path.insert(0, "{data}"); import IPython.display, '
                   'matplotlib_inline.backend_inline, matplotlib.pyplot; IPython.display.set_matplotlib_formats'
                   ' = matplotlib_inline.backend_inline.set_matplotlib_formats; sys.modules.setdefault('
                   '"imageio", matplotlib.pyplot); from preamble import *'))

FROM_FILE = {
    "homl2-ch02": {
        "path": "02_end_to_end_machine_learning_project.ipynb", "until": 116,
        "local": [(2, "fetch_housing_data()",
                   'fetch_housing_data(housing_url="file://{data}/datasets/housing/housing.tgz")'),
                  (35, 'url = DOWNLOAD_ROOT + "images/end_to_end_project/" + filename',
                   'url = "file://{data}/images/end_to_end_project/" + filename')],
    },
    # scikit-learn's bundled iris and literals: nothing to download
    "pdsh-0503": {"path": "notebooks/05.03-Hyperparameters-and-Model-Validation.ipynb", "until": None, "local": []},
    "pdsh-0504": {"path": "notebooks/05.04-Feature-Engineering.ipynb", "until": None, "local": []},
    # numpy-made data and scikit-learn's bundled iris: nothing to download; every code cell runs
    "homl3-ch04": {"path": "04_training_linear_models.ipynb", "until": None, "local": []},
    # iris, make_moons and wine, bundled or made: cells 0-49; code cell 50 on (exercise 10) downloads
    # California housing (fetch_california_housing: no network here, no cached copy), so it stops there
    "homl3-ch05": {"path": "05_support_vector_machines.ipynb", "until": 50, "local": []},
    # iris and make_moons, bundled or made: nothing to download; every code cell runs (its graphviz
    # cells 6 and 18 and the `dot` of cell 7 as they run here: no graphviz installed)
    "homl3-ch06": {"path": "06_decision_trees.ipynb", "until": None, "local": []},
    # make_moons, iris and numpy-made data: cells 0-38 but 21 and 34-36. Cell 21 (a figure of MNIST's
    # feature importances) and 34-36 (HistGradientBoosting on California housing) download (fetch_openml,
    # the housing tarball: no network here, no copy in the checkout or scikit-learn's cache); they are
    # skipped, not run (nothing later reads what they make: rnd_clf, housing, hgb_reg), so the boosting
    # cells 22-33 and the stacking cells 37-38 still run; cell 39 on (the exercises) read MNIST
    "homl3-ch07": {"path": "07_ensemble_learning_and_random_forests.ipynb", "until": 39, "local": [],
                   "skip": [21, 34, 35, 36]},
    # iris, make_blobs, make_moons and the bundled digits, and the ladybug image, read from the checkout
    # (cell 46's download: the same urlretrieve on the file): cells 0-112 but 31-35. Cells 31-34 download
    # MNIST (fetch_openml: no network here, no copy in scikit-learn's cache) and 35 times 100 k-means and
    # mini-batch k-means of k = 1..100, ten fits each (far too slow on 2 cores); they are skipped, not run
    # (what they make, X_train, y_train, X_memmap, minibatch_kmeans, kmeans_, times, inertias and k, is set
    # again before any later cell reads it, or never read); cell 113 on (the exercises) download the
    # Olivetti faces
    "homl3-ch09": {"path": "09_unsupervised_learning.ipynb", "until": 113,
                   "local": [(46, 'url = f"{homl3_root}/images/unsupervised_learning/{filename}"',
                              'url = "file://{data}/images/unsupervised_learning/" + filename')],
                   "skip": [31, 32, 33, 34, 35]},
    # make_blobs, numpy-made data and the bundled digits: nothing to download, nothing skipped (every cell takes
    # seconds). Cells 5 and 6 import the notebook's helpers_05_08 (ipywidgets' interact), which sits next to it
    # in the checkout, not in the kernel's working directory: its folder is put on sys.path first. Cell 0 fails
    # here (plt.style.use('seaborn-whitegrid'): the style is named seaborn-v0_8-whitegrid since matplotlib 3.6)
    "pdsh-0508": {"path": "notebooks/05.08-Random-Forests.ipynb", "until": None,
                  "local": [(5, "import helpers_05_08",
                             'import sys; sys.path.insert(0, "{data}/notebooks"); import helpers_05_08'),
                            (6, "import helpers_05_08",
                             'import sys; sys.path.insert(0, "{data}/notebooks"); import helpers_05_08')]},
    # make_blobs, make_moons, the bundled digits and scikit-learn's bundled china.jpg: nothing to download,
    # nothing skipped (its t-SNE cell 16 takes some seconds). Cell 0 fails here on its seaborn-whitegrid style
    # before its `import numpy as np`; numpy comes from the opening's cells, run after cell 2
    "pdsh-0511": {"path": "notebooks/05.11-K-Means.ipynb", "until": None, "local": []},
    # make_blobs, make_moons and the bundled digits: nothing to download, nothing skipped (its AIC cell 20, sixteen
    # mixtures of 50-200 components, takes some seconds). Cell 0 fails here on its seaborn-whitegrid style before its
    # `import numpy as np` (numpy comes from the opening's cells, run after cell 2), and cells 10, 11, 13 and 14 fail
    # in the notebook's draw_ellipse (cell 9): Ellipse(position, width, height, angle) gives the angle by position,
    # keyword-only in the matplotlib here (TypeError); each fails after plot_gmm has fitted its mixture and drawn
    # its points, so the later cells that read gmm16 and gmm still run
    "pdsh-0512": {"path": "notebooks/05.12-Gaussian-Mixtures.ipynb", "until": None, "local": []},
    # literals and numpy-made data: nothing skipped, every code cell runs and none fails. Cell 132 reads a CSV from
    # GitHub inside a try/except IOError: with no network here it prints the URLError and shows None (nothing later
    # reads us_cities), so it is left as it is; cells 128-131 write and read my_df.csv, .html and .json in the
    # kernel's folder (cell 130's to_excel prints its ImportError: no openpyxl here)
    "homl3-tools-pandas": {"path": "tools_pandas.ipynb", "until": None, "local": []},
    # three CSVs of the checkout's notebooks/data: nothing to download (cell 19's curl lines are comments), nothing
    # skipped, every code cell runs and none fails. Cell 20 reads them by a path relative to the notebook's folder
    # ('data/...'), not the kernel's: each is read from the checkout instead
    "pdsh-0307": {"path": "notebooks/03.07-Merge-and-Join.ipynb", "until": None,
                  "local": [(20, "'data/state-population.csv'", "'{data}/notebooks/data/state-population.csv'"),
                            (20, "'data/state-areas.csv'", "'{data}/notebooks/data/state-areas.csv'"),
                            (20, "'data/state-abbrevs.csv'", "'{data}/notebooks/data/state-abbrevs.csv'")]},
    # literals and numpy-made data: nothing to download, nothing skipped (its jshtml cells 47 and 49 draw 50 frames
    # each, some seconds). Cell 12 writes my_square_function.png in the kernel's folder, which cells 35 and 38 read.
    # Cells 46 and 50 fail here: no ffmpeg (to_html5_video and animation.writers['ffmpeg'], RuntimeError); nothing
    # later reads what they make
    "homl3-tools-matplotlib": {"path": "tools_matplotlib.ipynb", "until": None, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped, every code cell runs and none fails (each
    # in under two seconds here, cell 162's pure-Python loop over 768 x 1024 points too). Cells 168-180 write and read
    # my_array.npy, my_array.csv and my_arrays.npz in the kernel's folder
    "homl3-tools-numpy": {"path": "tools_numpy.ipynb", "until": None, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped, every code cell runs. Cell 31 fails in
    # every kernel (SyntaxError): it is the notebook's own example of the slices Python refuses inside a tuple,
    # health_data.loc[(:, 1), (:, 'HR')], before cell 32's pd.IndexSlice; it defines nothing later cells read
    "pdsh-0305": {"path": "notebooks/03.05-Hierarchical-Indexing.ipynb", "until": None, "local": []},
    # a numpy-made 3D dataset and make_swiss_roll: cells 0-50 but 19-35 and 38-41. Cell 19 downloads MNIST
    # (fetch_openml: no network here, no copy in scikit-learn's cache) and cells 20-35 read it (PCA to 95 %, the
    # searches, compression, randomized and incremental PCA, the memmap); they are skipped, not run (what they make,
    # mnist, X_train, pca, cumsum, d, X_reduced, X_recovered, X, inc_pca, X_mmap and the rest, is set again before
    # any later cell reads it, or never read). Cells 38-41 project a 5,000 x 20,000 random matrix onto 7,300
    # dimensions: cell 38 alone took 40 s and 2.2 GB here on one thread, 39 makes as large a matrix and product
    # again (near the trial's 60 s cell timeout), 40 takes the pinv of a 7,300 x 20,000 matrix and 41 runs four
    # %timeit of such fits and products, minutes each on 2 cores; they are skipped too (nothing later reads n, P, X,
    # X_reduced, gaussian_rnd_proj, components_pinv, X_recovered or sparse_rnd_proj before setting it). Cell 51 on
    # (the exercises) read MNIST. Every cell run here runs in a plain kernel, none fails; save_fig writes
    # images/dim_reduction in the kernel's folder
    "homl3-ch08": {"path": "08_dimensionality_reduction.ipynb", "until": 51, "local": [],
                   "skip": [*range(19, 36), 38, 39, 40, 41]},
    # literals and numpy-made data (a seeded default_rng): nothing to download, nothing skipped, every code cell runs
    # and none fails
    "pdsh-0303": {"path": "notebooks/03.03-Operations-in-Pandas.ipynb", "until": None, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped, every code cell runs (cells 2 and 3 are
    # %timeit, some seconds). Cell 4 fails in every kernel (TypeError): it is the notebook's own example of summing an
    # object array holding None; it defines nothing later cells read. Cells 26, 27 and 29 fail here (TypeError):
    # fillna(method='ffill'/'bfill') lost its method keyword in pandas 3 (ffill and bfill instead); each only shows
    # a result, nothing later reads one
    "pdsh-0304": {"path": "notebooks/03.04-Missing-Values.ipynb", "until": None, "local": []},
    # literals: nothing to download, nothing skipped, every code cell runs and none fails
    "pdsh-0302": {"path": "notebooks/03.02-Data-Indexing-and-Selection.ipynb", "until": None, "local": []},
    # literals: nothing to download, nothing skipped, every code cell runs. Cell 15 fails here (AttributeError, in the
    # notebook's display helper as it shows 'df1.append(df2)'): DataFrame.append was removed in pandas 2 (pd.concat
    # instead); it is the last cell, nothing later reads anything
    "pdsh-0306": {"path": "notebooks/03.06-Concat-And-Append.ipynb", "until": None, "local": []},
    # literals and numpy-made data (seeded default_rng; cell 14's np.random.choice is unseeded): nothing to download,
    # nothing skipped (the %timeit cells 24 and 25 take some seconds, 25's on a million points). Cell 13 fails here
    # (plt.style.use('seaborn-whitegrid'): the style is named seaborn-v0_8-whitegrid since matplotlib 3.6; OSError)
    # after its pyplot import, before its scatter plot: plt is still defined for the later cells, nothing else is read
    "pdsh-0207": {"path": "notebooks/02.07-Fancy-Indexing.ipynb", "until": None, "local": []},
    # literals and numpy-made data (a seeded default_rng): nothing to download, nothing skipped. Cell 13 fails here on
    # its seaborn-whitegrid style (OSError) after its pyplot import, before its scatter plot: plt is still defined for
    # cell 21, nothing else is read
    "pdsh-0208": {"path": "notebooks/02.08-Sorting.ipynb", "until": None, "local": []},
    # literals and numpy-made data (a seeded default_rng): nothing to download, nothing skipped; cell 7 is empty. Cell 0
    # fails here (OSError) on its plt.style.use('seaborn-white'): the style is named seaborn-v0_8-white since
    # matplotlib 3.6; it fails before its `import numpy as np`, so numpy comes from the opening's cells. Every other
    # code cell runs and none fails
    "pdsh-0408": {"path": "notebooks/04.08-Multiple-Subplots.ipynb", "until": None, "local": []},
    # numpy-made data (an unseeded default_rng) and the presidents' heights, a CSV of the checkout's notebooks/data:
    # nothing to download, nothing skipped (cells 3 and 6 are %timeit, some seconds). Cells 12 (!head) and 13
    # (pd.read_csv) read it by a path relative to the notebook's folder ('data/...'), not the kernel's: it is read from
    # the checkout instead. Cell 16 fails here (OSError) on its plt.style.use('seaborn-whitegrid'), after its import
    # of pyplot (the style is named seaborn-v0_8-whitegrid since matplotlib 3.6); cell 17 still runs. Every other code
    # cell runs and none fails
    "pdsh-0204": {"path": "notebooks/02.04-Computation-on-arrays-aggregates.ipynb", "until": None,
                  "local": [(12, "data/president_heights.csv", "{data}/notebooks/data/president_heights.csv"),
                            (13, "'data/president_heights.csv'", "'{data}/notebooks/data/president_heights.csv'")]},
    # literals and numpy-made data (cell 26's np.random.rand is unseeded; nothing later reads it): nothing to download,
    # nothing skipped, every code cell runs. Cell 33 fails in every kernel (TypeError): it is the notebook's own example
    # of assigning into an immutable Index, ind[1] = 0; it defines nothing later cells read
    "pdsh-0301": {"path": "notebooks/03.01-Introducing-Pandas-Objects.ipynb", "until": None, "local": []},
    # literals: cells 0-14, every one runs and none fails. Code cell 15 is the recipes download (curl and gunzip of
    # recipeitems.json.gz into data/, commented out) and cells 16-26 read data/recipeitems.json, which is not in the
    # checkout (no network here), so it stops there
    "pdsh-0310": {"path": "notebooks/03.10-Working-With-Strings.ipynb", "until": 15, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped. Cell 0 fails here (OSError) on its
    # plt.style.use('seaborn-whitegrid'), before its `import numpy as np`: the style is named seaborn-v0_8-whitegrid
    # since matplotlib 3.6. Left so, cell 2's np.linspace fails (NameError: numpy comes from the opening's cells only
    # after cell 2) and with it every later cell, which all read its x; so cell 0's style is replaced by its new name.
    # Then every code cell runs and none fails
    "pdsh-0401": {"path": "notebooks/04.01-Simple-Line-Plots.ipynb", "until": None,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # numpy-made data (a function on a meshgrid): nothing to download, nothing skipped. Cell 0 fails here (OSError) on
    # its plt.style.use('seaborn-white'), before its `import numpy as np`: the style is named seaborn-v0_8-white since
    # matplotlib 3.6. Left so, cell 2's np.linspace fails (NameError: numpy comes from the opening's cells only after
    # cell 2) and every later cell with it, which all read its X, Y and Z; so cell 0's style is replaced by its new
    # name. Then every code cell runs and none fails
    "pdsh-0404": {"path": "notebooks/04.04-Density-and-Contour-Plots.ipynb", "until": None,
                  "local": [(0, "'seaborn-white'", "'seaborn-v0_8-white'")]},
    # numpy-made data (a seeded default_rng) and scipy's gaussian_kde: nothing to download, nothing skipped. Cell 0
    # fails here (OSError) on its plt.style.use('seaborn-white') after its imports but before its rng and data, which
    # every later cell reads (the style is named seaborn-v0_8-white since matplotlib 3.6): left so, every later cell
    # fails (NameError), so cell 0's style is replaced by its new name. Then every code cell runs and none fails
    "pdsh-0405": {"path": "notebooks/04.05-Histograms-and-Binnings.ipynb", "until": None,
                  "local": [(0, "'seaborn-white'", "'seaborn-v0_8-white'")]},
    # numpy-made data: cells 0-12, nothing skipped. Code cell 13 on (the Seattle bicycle counts) read FremontBridge.csv
    # and SeattleWeather.csv, which cell 13's curl lines (comments) download: they are not in the checkout and there is
    # no network here, so it stops there. Cell 0 fails here (OSError) on its plt.style.use('seaborn-whitegrid'): the
    # style is named seaborn-v0_8-whitegrid since matplotlib 3.6; it fails after its pyplot import, before its
    # `import numpy as np`, and numpy comes from the opening's cells only after cell 2 (cell 1 reads it first), so cell
    # 0's style is replaced by its new name (as for pdsh-0401). Then every other code cell runs and none fails
    "pdsh-0506": {"path": "notebooks/05.06-Linear-Regression.ipynb", "until": 13,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # numpy-made data (a seeded RandomState and default_rng) and the bundled digits: cells 0-16, nothing skipped. Code
    # cell 17 on (eigenfaces) download the labelled faces in the wild (fetch_lfw_people: no network here, no copy in
    # the checkout or scikit-learn's cache), so it stops there. Cell 0 fails here (OSError) on its
    # plt.style.use('seaborn-whitegrid') (the style is named seaborn-v0_8-whitegrid since matplotlib 3.6), after its
    # numpy and pyplot imports, so both are defined for the later cells. Cell 10 fails here (AttributeError):
    # plt.cm.get_cmap was removed in matplotlib 3.9 (matplotlib.colormaps instead); it only draws, nothing later reads
    # what it makes. Every other code cell runs and none fails
    "pdsh-0509": {"path": "notebooks/05.09-Principal-Component-Analysis.ipynb", "until": 17, "local": []},
    # literals and numpy-made data (a seeded default_rng): nothing to download, nothing skipped, every code cell runs.
    # Cell 12 fails in every kernel (ValueError): it is the notebook's own example of shapes (3, 2) and (3,) that do
    # not broadcast; it defines nothing later cells read
    "pdsh-0205": {"path": "notebooks/02.05-Computation-on-arrays-broadcasting.ipynb", "until": None, "local": []},
    # Seattle's daily rainfall and literals and numpy-made data (a seeded default_rng): nothing skipped. Cell 0 loads
    # the rainfall with vega_datasets (data.seattle_weather(), 2015's precipitation in mm), which is not installed
    # here (ModuleNotFoundError; then rainfall_mm is undefined for cells 2, 22-24 and 28): it is read instead from the
    # checkout's first-edition notebooks_v1/data/Seattle2014.csv, Sea-Tac airport's daily PRCP for 2014 in tenths of
    # mm, divided by 10 (365 days, as cell 28's np.arange(365) expects); the import line and the load are the two
    # lines changed. Cell 1 fails here (OSError) on its plt.style.use('seaborn-whitegrid') (the style is named
    # seaborn-v0_8-whitegrid since matplotlib 3.6), after its import of pyplot: plt is still defined for cell 2.
    # Cells 37 and 39 fail in every kernel (ValueError): they are the notebook's own examples of `or` and `and` on
    # arrays; they define nothing later cells read. Every other code cell runs and none fails
    "pdsh-0206": {"path": "notebooks/02.06-Boolean-Arrays-and-Masks.ipynb", "until": None,
                  "local": [(0, "from vega_datasets import data", "import pandas as pd"),
                            (0, "data.seattle_weather().set_index('date')['precipitation']['2015']",
                             "pd.read_csv('{data}/notebooks_v1/data/Seattle2014.csv')['PRCP'] / 10")]},
    # literals and, from cell 24, a daily series (the S&P 500's closes): cells 0-30. Code cell 31 on (the Fremont
    # bridge's bicycle counts) read FremontBridge.csv, which cell 31's curl lines (comments) download: it is not in the
    # checkout and there is no network here, so it stops there. Cell 24 loads the S&P 500 with pandas_datareader from Yahoo,
    # which is not installed here (ModuleNotFoundError; then sp500 is undefined for cells 25-30): it is read instead
    # from the checkout's first-edition notebooks_v1/data/BicycleWeather.csv, Sea-Tac's daily weather from 2012-01-01
    # to 2015-09-01, taken on business days (asfreq('B'), so that cell 28's asfreq('D') has weekend gaps to fill, as
    # the trading days' series has) with its TMAX (daily high, in tenths of a degree C) renamed Close for cell 25; the
    # import line and the load are the two lines changed. Cells 19, 21 and 22 fail here (ValueError): the 'H' and 'T'
    # frequency aliases were removed in pandas 3 ('h' and 'min' instead); each only shows a range, nothing later reads
    # one. Cell 26 fails here (OSError) on its plt.style.use('seaborn-whitegrid') (the style is named
    # seaborn-v0_8-whitegrid since matplotlib 3.6), after its import of pyplot, so plt is defined for the later cells
    # (only its plot is lost). Cell 27 fails here (ValueError) on resample('BA'), an alias removed in pandas 3 ('BYE'
    # instead), after its first plot; it only draws, nothing later reads what it makes. Every other code cell runs and
    # none fails
    "pdsh-0311": {"path": "notebooks/03.11-Working-with-Time-Series.ipynb", "until": 31,
                  "local": [(24, "from pandas_datareader import data", "import pandas as pd"),
                            (24, "data.DataReader('^GSPC', start='2018', end='2022',\n"
                                 "                        data_source='yahoo')",
                             "pd.read_csv('{data}/notebooks_v1/data/BicycleWeather.csv', index_col='DATE',\n"
                             "                        parse_dates=True)"
                             ".asfreq('B').rename(columns={{'TMAX': 'Close'}})")]},
    # numpy-made data (a seeded default_rng): nothing to download, nothing skipped (cells 0, 6 and 7 are %timeit, some
    # seconds; cell 5 makes four 100,000 x 100 frames, 320 MB). Cell 1 fails in every kernel (IndentationError): its
    # %timeit line magic is continued on a second, indented line, which a line magic does not take; it defines nothing.
    # Cell 4 fails here (ModuleNotFoundError): numexpr is not installed; nothing later reads its mask_numexpr, and
    # pd.eval and DataFrame.eval/query fall back on their python engine. Every other code cell runs and none fails
    # (cells 19-21 warn of pandas 4's deprecations)
    "pdsh-0312": {"path": "notebooks/03.12-Performance-Eval-and-Query.ipynb", "until": None, "local": []},
    # numpy-made data (a seeded default_rng) and scikit-learn's bundled iris: nothing to download, nothing skipped.
    # Cell 0 fails here (OSError) on its plt.style.use('seaborn-whitegrid'), before its `import numpy as np`: the
    # style is named seaborn-v0_8-whitegrid since matplotlib 3.6. Left so, cells 1 and 2 fail (NameError: numpy comes
    # from the opening's cells only after cell 2) and cells 3-5 with them, which read cell 1's x and y; so cell 0's
    # style is replaced by its new name (as for pdsh-0401). Then every code cell runs and none fails
    "pdsh-0402": {"path": "notebooks/04.02-Simple-Scatter-Plots.ipynb", "until": None,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # numpy-made data (cell 1's np.random.randn is unseeded) and a Gaussian process fit of scikit-learn on five
    # points: nothing to download, nothing skipped. Cell 0 fails here (OSError) on its
    # plt.style.use('seaborn-whitegrid'), before its `import numpy as np` (the style is named seaborn-v0_8-whitegrid
    # since matplotlib 3.6). Left so, cell 1's np.linspace fails (NameError: numpy comes from the opening's cells only
    # after cell 2) and cell 2 with it, which reads its x, y and dy; so cell 0's style is replaced by its new name.
    # Then every code cell runs and none fails
    "pdsh-0403": {"path": "notebooks/04.03-Errorbars.ipynb", "until": None,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # numpy-made data: cells 0-7, nothing skipped. Code cell 8 is the download of california_cities.csv (curl into
    # data/, commented out) and cell 9 reads it from data/, which is not in the checkout's notebooks/data (no network
    # here; a first-edition copy sits in notebooks_v1/data, not used), so it stops there (cell 10 too, a second
    # legend on numpy-made data). Cell 0 fails here (OSError) on its plt.style.use('seaborn-whitegrid') (the style is
    # named seaborn-v0_8-whitegrid since matplotlib 3.6), after its import of pyplot, its only other line: plt is
    # still defined for the later cells, and numpy is cell 1's. Every other code cell runs and none fails
    "pdsh-0406": {"path": "notebooks/04.06-Customizing-Legends.ipynb", "until": 8, "local": []},
    # numpy-made data (unseeded np.random; nothing later depends on its draws) and scikit-learn's bundled digits
    # (load_digits): nothing to download, nothing skipped (cell 11's Isomap takes a second). Cell 0 fails here (OSError)
    # on its plt.style.use('seaborn-white') (the style is named seaborn-v0_8-white since matplotlib 3.6), after its
    # pyplot import; numpy comes from cell 1, so no later cell fails for it and the style is left as it is. Cells 5, 6,
    # 7, 9 and 12 fail here (AttributeError): plt.cm.get_cmap was removed in matplotlib 3.9 (matplotlib.colormaps
    # instead); cell 4's grayscale_cmap and view_colormap call it (cells 5-7 call view_colormap) and cells 9 and 12 call
    # it for a six-color map before they draw; each only draws, nothing later reads what it makes. Every other code cell
    # runs and none fails
    "pdsh-0407": {"path": "notebooks/04.07-Customizing-Colorbars.ipynb", "until": None, "local": []},
    # the CDC births (data/births.csv, in the checkout) and numpy-made data: nothing to download (cell 1's curl lines
    # are comments), nothing skipped. Cell 2 reads births.csv by a path relative to the notebook's folder ('data/...'),
    # not the kernel's: it is read from the checkout instead. Cell 0 fails here (OSError) on its
    # plt.style.use('seaborn-whitegrid') (the style is named seaborn-v0_8-whitegrid since matplotlib 3.6), before its
    # numpy and pandas imports: left so, cell 2 fails (NameError: pd, which the opening does not import) and cells 3, 4
    # and 8 with it, which read its births_by_date; so cell 0's style is replaced by its new name (as for pdsh-0401).
    # Then every code cell runs and none fails
    "pdsh-0409": {"path": "notebooks/04.09-Text-and-Annotation.ipynb", "until": None,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'"),
                            (2, "'data/births.csv'", "'{data}/notebooks/data/births.csv'")]},
    # numpy-made data (unseeded np.random; nothing later depends on its draws): nothing to download, nothing skipped,
    # every code cell runs and none fails
    "pdsh-0412": {"path": "notebooks/04.12-Three-Dimensional-Plotting.ipynb", "until": None, "local": []},
    # make_blobs (seeded) and make_circles (cell 10's is unseeded; cells 11-14 read its X and y): cells 0-16, nothing
    # skipped. Code cell 17 on (face recognition) download the labelled faces in the wild
    # (fetch_lfw_people: no network here, no copy in the checkout or scikit-learn's cache), so it stops there. Cell 0
    # fails here (OSError) on its plt.style.use('seaborn-whitegrid') (the style is named seaborn-v0_8-whitegrid since
    # matplotlib 3.6), after its numpy and pyplot imports, so both are defined for the later cells; its `from scipy
    # import stats` is not run, and no cell before 17 reads stats. Cell 9's ipywidgets interact runs (ipywidgets is
    # installed). Every other code cell runs and none fails
    "pdsh-0507": {"path": "notebooks/05.07-Support-Vector-Machines.ipynb", "until": 17, "local": []},
    # numpy-made data (make_data's seeded RandomState) and the bundled digits: nothing to download, nothing skipped
    # (cell 13's search of 100 bandwidths x 5 folds over the digits takes some 25-40 s here). Cell 0 fails here
    # (OSError) on its plt.style.use('seaborn-whitegrid'), before its `import numpy as np` (the style is named
    # seaborn-v0_8-whitegrid since matplotlib 3.6). Left so, cell 1's make_data(1000) fails (NameError: numpy comes
    # from the opening's cells only after cell 2) and with it cells 2 and 3, which read its x and hist; so cell 0's
    # style is replaced by its new name (as for pdsh-0401). Then every code cell runs and none fails
    "pdsh-0513": {"path": "notebooks/05.13-Kernel-Density-Estimation.ipynb", "until": None,
                  "local": [(0, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # literals and numpy-made data (cells 16-18's unseeded np.random; nothing later reads their draws): nothing to
    # download, nothing skipped, every code cell runs and none fails
    "pdsh-0201": {"path": "notebooks/02.01-Understanding-Data-Types.ipynb", "until": None, "local": []},
    # literals and numpy-made data (cell 0's Generator seeded 1701; no later cell draws from it): nothing to download,
    # nothing skipped, every code cell runs and none fails
    "pdsh-0202": {"path": "notebooks/02.02-The-Basics-Of-NumPy-Arrays.ipynb", "until": None, "local": []},
    # literals and numpy-made data (a seeded default_rng) and scipy.special: nothing to download, nothing skipped
    # (cells 1 and 3 are %timeit, some seconds: cell 1's Python loop over a million values), every code cell runs and
    # none fails
    "pdsh-0203": {"path": "notebooks/02.03-Computation-on-arrays-ufuncs.ipynb", "until": None, "local": []},
    # literals: nothing to download, nothing skipped (cell 16 is three %timeit), every code cell runs and none fails
    "pdsh-0209": {"path": "notebooks/02.09-Structured-Data-NumPy.ipynb", "until": None, "local": []},
    # numpy-made data (a seeded default_rng in cell 4): cells 0-10 but 5. Cell 5 (a grid of faces with no ticks)
    # downloads the Olivetti faces (fetch_olivetti_faces: no network here, no copy in the checkout or scikit-learn's
    # cache; URLError after its 5 x 5 subplots are made); it is skipped, not run (nothing later reads what it makes:
    # faces, i and j, and cell 6 makes fig and ax again). Cell 0's 'classic' style is still in matplotlib. Every
    # other code cell runs and none fails
    "pdsh-0410": {"path": "notebooks/04.10-Customizing-Ticks.ipynb", "until": None, "local": [], "skip": [5]},
    # numpy-made data (cells 1 and 5's np.random are unseeded; hist_and_lines seeds its own): nothing to download,
    # nothing skipped. Cell 14 fails here (OSError) on its plt.style.context('seaborn-whitegrid'): the style is named
    # seaborn-v0_8-whitegrid since matplotlib 3.6; it is the last cell (nothing later reads anything), but left so it
    # draws nothing, so its style is replaced by its new name. Then every code cell runs and none fails
    "pdsh-0411": {"path": "notebooks/04.11-Settings-and-Stylesheets.ipynb", "until": None,
                  "local": [(14, "'seaborn-whitegrid'", "'seaborn-v0_8-whitegrid'")]},
    # iris, numpy-made data (a seeded RandomState) and scikit-learn's bundled digits: nothing skipped (cell 25's Isomap
    # takes some seconds). Cell 0 loads iris with seaborn's load_dataset, which downloads it from GitHub (no network
    # here, no copy in seaborn's cache: URLError; then iris is undefined for cells 1-3 and X_iris and y_iris for cells
    # 14-20): it is built instead from scikit-learn's bundled iris (load_iris(as_frame=True)) with seaborn's column names
    # sepal_length, sepal_width, petal_length, petal_width and species and its species names setosa, versicolor and
    # virginica, the one expression changed. Cell 26 fails here (AttributeError): plt.cm.get_cmap was removed in
    # matplotlib 3.9 (matplotlib.colormaps instead); it only draws, nothing later reads what it makes. Every other code
    # cell runs and none fails
    "pdsh-0502": {"path": "notebooks/05.02-Introducing-Scikit-Learn.ipynb", "until": None,
                  "local": [(0, "sns.load_dataset('iris')",
                             "__import__('sklearn.datasets', fromlist=['load_iris']).load_iris(as_frame=True).frame"
                             ".set_axis(['sepal_length', 'sepal_width', 'petal_length', 'petal_width', 'species'], "
                             "axis=1).assign(species=lambda d: d['species'].map("
                             "{{0: 'setosa', 1: 'versicolor', 2: 'virginica'}}))")]},
    # make_blobs (seeded) and numpy-made points (a seeded RandomState): cells 0-5. Code cell 6 on (text classification)
    # download the 20 newsgroups (fetch_20newsgroups: no network here, no copy in scikit-learn's cache: URLError; then
    # train and test are undefined for cells 8 and 10-15), so it stops there. Cell 0 fails here (OSError) on its
    # plt.style.use('seaborn-whitegrid') (the style is named seaborn-v0_8-whitegrid since matplotlib 3.6), after its
    # numpy, pyplot and seaborn imports, so all three are defined for the later cells. Every other code cell runs and
    # none fails
    "pdsh-0505": {"path": "notebooks/05.05-Naive-Bayes.ipynb", "until": 6, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped, every code cell runs and none fails (all
    # 137 in a few seconds here). Cells 56 and 105 catch the notebook's own examples of a failing product and
    # inverse (ValueError, LinAlgError) and print them; no cell needs sympy, which is not installed here
    "homl3-math-linear-algebra": {"path": "math_linear_algebra.ipynb", "until": None, "local": []},
    # literals only: nothing to download, nothing skipped. Cells 22 and 23 fail natively, as the notebook means them
    # to (its examples of a tuple's immutability: TypeError on t[1] = 4, AttributeError on t.append(4)); nothing
    # later reads anything they would make. Every other code cell runs and none fails
    "wwt-06": {"path": "06-Built-in-Data-Structures.ipynb", "until": None, "local": []},
    # literals, numpy-made arrays, a DataFrame of literals, matplotlib and scipy's interpolate: nothing to download,
    # nothing skipped, every code cell runs and none fails. Cell 12's %matplotlib notebook selects matplotlib's nbagg
    # backend in the kernel and runs (a bare IPython shell, with no kernel's event loop, fails it: NotImplementedError);
    # cell 13's 'ggplot' style is still in matplotlib, and cell 15's interp1d, scipy's legacy class, still there
    "wwt-15": {"path": "15-Preview-of-Data-Science-Tools.ipynb", "until": None, "local": []},
    # string literals and re: nothing to download, nothing skipped. Cell 20 fails natively, as the notebook means it to
    # (its example of index on a missing substring: ValueError, against find's -1 in cell 19); nothing later reads
    # anything it would make. Cell 37's shell escape !ls *Python*.ipynb matches no file in the kernel's working
    # directory (ls's message, no error); cells 38 and 45 compile patterns from non-raw strings (an invalid escape's
    # warning at most, no error). Every other code cell runs and none fails
    "wwt-14": {"path": "14-Strings-and-Regular-Expressions.ipynb", "until": None, "local": []},
    # the adult census and the Citi Bike rentals, CSVs of the checkout's data/, mglearn's make_wave, numpy-made data
    # (seeded RandomStates) and scikit-learn's bundled breast cancer: nothing to download; cells 0-71 but 35-39 (cell
    # 54's RFE of 40 forests takes some seconds). Cell 0's `from preamble import *` reads the checkout's preamble.py
    # and mglearn package, not in the kernel's working directory, and fails here even on sys.path: preamble imports
    # set_matplotlib_formats from IPython.display, which IPython 9 removed (matplotlib_inline.backend_inline's now),
    # and mglearn imports imageio's imread (for two tree plots this notebook does not draw), which is not installed
    # here; left so, np, pd, plt, mglearn and display are undefined and nearly every later cell fails (NameError). So
    # that import line is replaced by one that puts the checkout on sys.path, gives IPython.display matplotlib_inline's
    # set_matplotlib_formats and sys.modules an imageio whose imread is matplotlib's, then runs `from preamble import
    # *`. Cells 1 and 57 read adult.data and citibike.csv from mglearn.datasets.DATA_PATH, mglearn/data, which the
    # checkout does not have (FileNotFoundError; the files are in its data/): cell 1's path is the checkout's data/
    # instead, and cell 57 sets DATA_PATH to it before its load_citibike. Cells 35-39 (interactions and polynomials on
    # Boston housing) are skipped, not run: cell 35's load_boston was removed in scikit-learn 1.2 (ImportError;
    # mglearn's fallback downloads it: no network here, no copy in the checkout) and cells 36-39 read what it makes;
    # what they make, boston, scaler, X_train_scaled, poly, X_train_poly, ridge and rf, is set again before any later
    # cell reads it, or never read. Cell 13 builds its OneHotEncoder with sparse=False, a keyword scikit-learn
    # 1.4 removed (sparse_output instead): left so, it fails (TypeError) and cells 14-16, which fit and read its ct,
    # with it, so it is replaced by its new name; cell 70's PolynomialFeatures.get_feature_names was removed in
    # scikit-learn 1.2 (get_feature_names_out instead): left so, it fails (AttributeError) and cell 71 with it, which
    # plots its coef_nonzero, so it is replaced by its new name. Cells 10 and 17 fail here (TypeError) on the same
    # sparse=False, after their imports, cell 11 with cell 10 (NameError: ohe; its get_feature_names is gone too), and
    # cell 32 (AttributeError) on get_feature_names; nothing later reads what they make (ohe, cell 17's ct). Every
    # other code cell runs and none fails
    "imlp-04": {"path": "04-representing-data-feature-engineering.ipynb", "until": None,
                "local": [(0, "from preamble import *",
                           'import sys, types, IPython.display, matplotlib.pyplot, matplotlib_inline.backend_inline; '
                           'sys.path.insert(0, "{data}"); '
                           'sys.modules.setdefault("imageio", types.SimpleNamespace(imread=matplotlib.pyplot.imread)); '
                           'IPython.display.set_matplotlib_formats = '
                           'matplotlib_inline.backend_inline.set_matplotlib_formats; from preamble import *'),
                          (1, 'os.path.join(mglearn.datasets.DATA_PATH, "adult.data")',
                           'os.path.join("{data}/data", "adult.data")'),
                          (13, "OneHotEncoder(sparse=False)", "OneHotEncoder(sparse_output=False)"),
                          (57, "citibike = mglearn.datasets.load_citibike()",
                           'mglearn.datasets.DATA_PATH = "{data}/data"; citibike = mglearn.datasets.load_citibike()'),
                          (70, "poly_transformer.get_feature_names(features)",
                           "poly_transformer.get_feature_names_out(features)")],
                "skip": [35, 36, 37, 38, 39]},
    # scikit-learn's bundled breast cancer data and seeded numpy-made data: nothing to download; cells 0-37 but 28-33.
    # Cell 0's `from preamble import *` fails here as it stands: preamble.py and the mglearn package sit in the
    # checkout's root, not the kernel's folder; preamble imports set_matplotlib_formats from IPython.display (removed
    # in IPython 9, matplotlib_inline's function since IPython 7.23); and mglearn imports imageio's imread (not
    # installed here; only its tree plots call it). So that line puts the checkout on sys.path, lends IPython.display
    # matplotlib_inline's set_matplotlib_formats and stands matplotlib.pyplot (its imread) in for imageio before the
    # same import. Cell 27 fails here (ImportError): load_boston was removed in scikit-learn 1.2 (and mglearn's own
    # load_boston downloads it: no network here, no copy in the checkout). Cells 28-33 (the polynomial ridge search on
    # its data, its heatmap and scores, the search without polynomial features) read what it makes (boston's X_train
    # and y_train, the PolynomialFeatures pipe, param_grid and grid); they are skipped, not run (cells 34-36 make pipe,
    # param_grid, X_train and grid again). Every other code cell runs and none fails (the grid searches of cells 3, 9
    # and 36 take a few seconds; cell 37's pipe with memory="cache_folder" is never fitted)
    "imlp-06": {"path": "06-algorithm-chains-and-pipelines.ipynb", "until": None,
                "local": [_IMLP_PREAMBLE],
                "skip": [28, 29, 30, 31, 32, 33]},
    # literals, numpy-made data and scikit-learn's bundled iris: nothing to download, nothing skipped. Cell 0's
    # `from preamble import *` is replaced as for imlp-06 (the checkout put on sys.path, IPython.display lent
    # matplotlib_inline's set_matplotlib_formats, removed in IPython 9, and matplotlib.pyplot standing in for imageio,
    # not installed here, before the same import). Then every code cell runs and none fails
    "imlp-01": {"path": "01-introduction.ipynb", "until": None,
                "local": [_IMLP_PREAMBLE]},
    # numpy-made data (cell 1's unseeded np.random, and the descents' own draws; nothing later depends on their values):
    # nothing to download, nothing skipped, every code cell runs and none fails (cell 12's jshtml animation of n_iter // 3
    # = 83 frames takes some seconds here; code cell 13 is empty)
    "homl3-extra-gd": {"path": "extra_gradient_descent_comparison.ipynb", "until": None, "local": []},
    # literals and numpy-made data: nothing to download, nothing skipped; no cell needs sympy (not installed here). Cells
    # 3-5 show jshtml animations of 200 frames (some 10-15 s each here). Cells 6, 7 and 10 fail here (RuntimeError: x
    # must be a sequence): FuncAnimation calls their init_func at once, whose update_graph gives Line2D.set_data one
    # point as two scalars, which the matplotlib here (3.11) refuses. Cells 6 and 10 fail in their last line, after
    # defining their functions (animate_tangent, f and fp; animate_gradient_descent, f and fp), and cell 7 is one call
    # of animate_tangent; later cells define their own f, so they still run. Every other code cell runs and none fails
    # (code cell 13 is empty)
    "homl3-math-calculus": {"path": "math_differential_calculus.ipynb", "until": None, "local": []},
    # make_blobs (seeded) and scikit-learn's bundled iris and digits: nothing to download, nothing skipped (cell 38's
    # nested grid search and cells 73-74's grid searches on the digits take some seconds). Cell 0's `from preamble
    # import *` reads the book's preamble.py and its mglearn package from the checkout's root, not from the kernel's
    # working directory (ModuleNotFoundError), and with the checkout on sys.path it still fails here: preamble
    # imports set_matplotlib_formats from IPython.display, which the IPython 9 here no longer has (ImportError), and
    # mglearn imports imageio (plot_interactive_tree's and plot_animal_tree's `from imageio import imread`), not
    # installed here. Left so, pd, display and mglearn are undefined (np and plt come from the opening's cells, run
    # after cell 2) and every cell that reads them fails (NameError); so the import line is replaced by the checkout
    # put on sys.path and the names preamble exports (display, pd, np, plt, mglearn) imported one by one, with a
    # stand-in imageio module (its imread pyplot's) so that mglearn imports (no cell here draws its trees);
    # preamble's rcParams and print options (looks only) are not set. Cells 33, 34 and 68 fail here (TypeError) in
    # mglearn.tools.heatmap, which formats each value of pcolor's get_array(), a 2-D array since matplotlib 3.8 (its
    # rows, not numbers), after the colours are drawn: cell 33's scores is made before it; cell 34 stops in its
    # loop's first heatmap, its colorbar not drawn (its param_grid, grid_search and scores are set again by cells 35,
    # 36 and 38 before any later cell reads them); cell 68 only draws. Cell 75 fails here (ImportError):
    # sklearn.metrics.SCORERS was removed in scikit-learn 1.3 (get_scorer_names instead); it only prints. Every other
    # code cell runs and none fails
    "imlp-05": {"path": "05-model-evaluation-and-improvement.ipynb", "until": None,
                "local": [(0, "from preamble import *",
                           "import sys, types; sys.path.insert(0, '{data}')\nfrom IPython.display import display\n"
                           "import pandas as pd\nimport numpy as np\nimport matplotlib.pyplot as plt\n"
                           "sys.modules.setdefault('imageio', types.SimpleNamespace(imread=plt.imread))\n"
                           "import mglearn")]},
}


def file_cells(trial: dict, data: Path) -> list[str | None]:
    """A notebook file's code cells up to `until`, each download replaced by the same call on the
    file in the checkout (the one line changed, so the cell is otherwise the notebook's); a cell in
    `skip` (a download with no local copy) is None, not run, so the indices stay the notebook's."""
    notebook = json.loads((data / trial["path"]).read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"][:trial["until"]]
    for at, old, new in trial["local"]:
        if old not in cells[at]:
            raise SystemExit(f"error: code cell {at} of {trial['path']} has no {old!r}: another version?")
        cells[at] = cells[at].replace(old, new.format(data=data.resolve()))
    return [None if at in trial.get("skip", ()) else cell for at, cell in enumerate(cells)]


SHOWN = re.compile(r"^codecheck: line \d+:\d+: error\[", re.M)      # auto mode's line before the cell


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--data", default=None,
                    help="a checkout of the notebook's repository, for a notebook read from its file (every "
                         "--notebook but ch05, ch07 and ch10)")
    ap.add_argument("--cell-timeout", type=float, default=60)
    ap.add_argument("--notebook", default="ch05", choices=sorted(TRIALS))
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "guard-trial"))
    args = ap.parse_args(argv)
    NOTEBOOK, mistakes_typed = TRIALS[args.notebook]
    from_file = FROM_FILE.get(args.notebook)
    if from_file is not None and args.data is None:
        ap.error(f"--notebook {args.notebook} is read from its file: --data, a checkout of its repository")
    needs = [Path(args.data) / from_file["path"]] if from_file else [args.clean]
    require("bench/guard_trial.py", packages=("jupyter_client", "ipykernel", "pandas", "matplotlib", "joblib",
                                              *(("sklearn", "scipy") if from_file else ())), paths=needs)
    if from_file:
        cells = file_cells(from_file, Path(args.data))
    else:
        (cells,) = [c for name, c in notebooks(Path(args.clean), 0) if name == NOTEBOOK]
    before = {}
    for at, text, *what in mistakes_typed:
        before.setdefault(at, []).append((text, what[0] if what else None))
    rows = []
    with tempfile.TemporaryDirectory() as plain_dir, tempfile.TemporaryDirectory() as guard_dir:
        plain, guard = Kernel(plain_dir), Kernel(guard_dir)
        try:
            guard.run("%load_ext jupyter_codecheck\n%codecheck auto guard", 600)
            guard.run("[m for m in get_ipython().magics_manager.registry.values() "
                      "if hasattr(m, 'join_warm_up')][0].join_warm_up()", 600)
            steps = [("opening", None, c, None) for c in OPENING]
            for i, cell in enumerate(cells):
                steps += [("mistake", i, m, what) for m, what in before.get(i, ())]
                if cell is not None:            # None: a cell skipped (file_cells)
                    steps.append(("cell", i, cell, None))
                if i == 2:                      # after the notebook's own imports
                    steps, opening = [s for s in steps if s[0] != "opening"], [s for s in steps if s[0] == "opening"]
                    steps += opening
            for kind, index, text, what in steps:
                _, e_plain, _ = plain.run(text, args.cell_timeout)
                _, e_guard, shown = guard.run(text, args.cell_timeout)
                stopped = e_guard == "CellStopped"
                if stopped and kind == "cell":      # a wrong stop: run it anyway, as a user would
                    _, e_guard, _ = guard.run(text, args.cell_timeout)
                rows.append({"kind": kind, "index": index, "cell": text, "what": what, "plain_error": e_plain,
                             "guard_error": e_guard, "stopped": stopped,
                             "shown_before": any(SHOWN.search(s) for s in shown),
                             "shown": [s for s in shown if "codecheck" in s][:3]})
            threads = guard.run("import threading\nprint(sorted(t.name for t in threading.enumerate()))",
                                args.cell_timeout)[2]
        finally:
            plain.close()
            guard.close()
    mistakes = [r for r in rows if r["kind"] == "mistake"]
    crashed = [r for r in mistakes if r["plain_error"] is not None]
    stopped = [r for r in crashed if r["stopped"]]
    shown_only = [r for r in crashed if not r["stopped"] and r["shown_before"]]
    cells_run = [r for r in rows if r["kind"] == "cell"]
    summary = {"notebook": NOTEBOOK, "mistakes": len(mistakes), "crashed": len(crashed), "stopped": len(stopped),
               "shown_not_stopped": len(shown_only), "missed": len(crashed) - len(stopped) - len(shown_only),
               "crashed_not_stopped": [r["cell"] for r in crashed if not r["stopped"]],
               "mistakes_that_ran_but_stopped": sum(r["stopped"] and r["plain_error"] is None for r in mistakes),
               "notebook_cells": len(cells_run),
               "notebook_cells_crashed": sum(r["plain_error"] is not None for r in cells_run),
               "notebook_cells_stopped": sum(r["stopped"] for r in cells_run),
               "notebook_cells_stopped_wrongly": sum(r["stopped"] and r["plain_error"] is None for r in cells_run),
               "notebook_cells_differing": sum(r["plain_error"] != r["guard_error"] for r in cells_run),
               "threads_at_the_end": threads[0].strip() if threads else None,
               "loadavg": [round(x, 2) for x in os.getloadavg()]}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/guard_trial.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    with open(out / "trial.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    lines = [f"# A new user's trial of the guard on {NOTEBOOK}", "", f"`{command}`", "",
             f"Opening: a plot, a 200,000-character print, joblib's loky pool. {len(mistakes)} mistakes typed in; "
             f"{len(crashed)} crashed in the plain kernel; the guard stopped **{len(stopped)} of {len(crashed)}**, "
             f"{len(shown_only)} more shown before the run but not stopped, {summary['missed']} missed. "
             f"Notebook cells stopped wrongly: {summary['notebook_cells_stopped_wrongly']} of {len(cells_run)} "
             f"({summary['notebook_cells_crashed']} crashed in the plain kernel, the guard stopped "
             f"{summary['notebook_cells_stopped']}). Threads alive at the end: {summary['threads_at_the_end']}.", "",
             "| before cell | mistake | kind | plain kernel | guard | shown |", "|---|---|---|---|---|---|"]
    for r in mistakes:
        cell = r["cell"].replace("\n", "⏎ ").replace("|", "\\|")
        shown = " ".join(r["shown"])[:160].replace("\n", " ").replace("|", "\\|")
        lines.append(f"| {r['index']} | `{cell}` | {r['what'] or ''} | {r['plain_error']} "
                     f"| {'stopped' if r['stopped'] else r['guard_error']} | {shown} |")
    wrong = [r for r in cells_run if r["plain_error"] != r["guard_error"] or r["stopped"]]
    if wrong:
        lines += ["", "Notebook cells the guard stopped or that ended otherwise than in the plain kernel:", "",
                  "| cell | plain kernel | guard | stopped |", "|---|---|---|---|"]
        lines += [f"| {r['index']} | {r['plain_error']} | {r['guard_error']} | {r['stopped']} |" for r in wrong]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
